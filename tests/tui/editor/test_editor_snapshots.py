"""How the editor looks in its main states, at 100x30 and 160x45.

Content is fixed and paths are relative (the tests run in their own temporary folder),
so the pictures change only when the screens do. Update with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, Input, TextArea

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSetBuilder, SessionInput, ToolCall
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tests.tui.conftest import to_field, wait_for, wait_for_form

SIZES = [(100, 30), (160, 45)]


def write_workspace(folder: Path) -> None:
    (
        EvalSetBuilder("weather agent")
        .add_case(
            "What's the weather in London?",
            "It is sunny in London.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London", "unit": "C"})],
            expected_node_order=["agent", "tools", "agent"],
            case_id="london_sunny",
            name="London, sunny",
            description="Single turn with one tool call.",
            tags=["smoke", "weather"],
            metadata={"context": "London forecast: sunny, 21C.", "reference_facts": ["sunny"]},
            session_input=SessionInput(app_name="weather", user_id="alice", state={"plan": "pro"}),
        )
        .add_multi_turn(
            [("Hi!", "Hello! How can I help?"), ("And Paris?", "18C and cloudy in Paris.")],
            expected_tools=[ToolCall(name="get_weather", args={"city": "Paris"})],
            case_id="paris_chat",
            name="Paris, two turns",
            tags=["weather", "multi-turn"],
        )
        .add_case("Tell me a joke", "Why did the cloud...", case_id="off_topic", tags=["smoke"])
        .add_tool_test("Convert 20C to F", "convert", {"value": 20}, case_id="convert")
        .save(folder / "weather.evalset.json")
    )
    (folder / "broken.evalset.json").write_text(
        '{\n  "eval_set_id": "broken",\n  "eval_cases": [\n    {"eval_id": 7}\n  ]\n}\n',
        encoding="utf-8",
    )


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_workspace(tmp_path)
    return tmp_path


def no_blink(pilot: Pilot[Any]) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        assert isinstance(widget, Input | TextArea)
        widget.cursor_blink = False


async def showing_the_error(pilot: Pilot[Any]) -> None:
    """Wait until the editor shows why its open file does not load."""
    await wait_for(
        pilot,
        lambda: (
            bool(pilot.app.screen.query(ContentSwitcher))
            and pilot.app.screen.query_one(ContentSwitcher).current == "error"
        ),
        what="the editor showing the file's problems",
    )
    await pilot.pause()


def shown_id(pilot: Pilot[Any]) -> str | None:
    """The id of the case the editor's form shows."""
    screen: Any = pilot.app.screen
    uid = screen.query_one("CaseForm").uid
    return None if uid is None or screen.document is None else screen.document.case(uid).eval_id


async def opened(pilot: Pilot[Any]) -> None:
    await wait_for_form(pilot)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_editor_with_a_case(snap_compare: Any, workspace: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await showing_the_error(pilot)  # the first file opened: the broken one
        await pilot.press("ctrl+g", "down", "enter")  # the weather set (broken sorts first)
        await opened(pilot)

    app = WorkbenchApp(".", watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_editor_validation_errors(
    snap_compare: Any, workspace: Path, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await opened(pilot)
        await pilot.press("down")  # paris_chat
        await wait_for(pilot, lambda: shown_id(pilot) == "paris_chat")
        await to_field(pilot, "eval_id", "enter")
        await pilot.press("ctrl+u", *"london_sunny")  # a duplicate id
        form = pilot.app.screen.query_one("CaseForm")
        form.focus_field("turns.0.tools.0.args")
        await pilot.press("end", "backspace")  # args no longer JSON
        no_blink(pilot)
        await pilot.pause()

    app = WorkbenchApp("weather.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_editor_filtered_by_tag(snap_compare: Any, workspace: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await opened(pilot)
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(pilot.app.focused, Input))  # the filter box
        await pilot.press(*"#smoke joke", "enter")
        await pilot.pause()

    app = WorkbenchApp("weather.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_file_that_does_not_load(snap_compare: Any, workspace: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await showing_the_error(pilot)

    app = WorkbenchApp("broken.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_unsaved_changes_prompt(snap_compare: Any, workspace: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await opened(pilot)
        await to_field(pilot, "eval_id", "enter")
        await to_field(pilot, "name", "tab")
        await pilot.press(*"renamed", "ctrl+q")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
        await pilot.pause()

    app = WorkbenchApp("weather.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_missing_workspace(snap_compare: Any, workspace: Path) -> None:
    app = WorkbenchApp("sample_evals", watch_files=False)
    assert snap_compare(app, terminal_size=SIZES[0])
