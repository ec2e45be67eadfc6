"""An eval set's id and agent: set when it is created and with f2, saved, undone."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.editor.eval_set_details import EvalSetDetailsScreen
from tenxeval_tui.screens.editor.new_eval_set import NewEvalSetScreen
from tests.tui.conftest import to_widget, wait_for, wait_for_form
from tests.waiting import scaled


def editor(app: WorkbenchApp) -> EditorScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, EditorScreen))
    return screen


async def test_a_new_eval_set_gets_its_file_name_as_id_or_the_typed_one(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await to_widget(pilot, "files")  # the file list has the focus in an empty folder
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewEvalSetScreen))
        await to_widget(pilot, "new-name")
        await pilot.press(*"Smoke Tests")
        id_box = app.screen.query_one("#new-id", Input)
        await wait_for(pilot, lambda: id_box.placeholder == "smoke-tests")
        await pilot.press("enter")
        await wait_for(pilot, lambda: editor(app).document is not None)
        document = editor(app).document
        assert document is not None and document.header("eval_set_id") == "smoke-tests"
        await pilot.press("ctrl+n", "ctrl+s")
        target = tmp_path / "Smoke Tests.evalset.json"
        await wait_for(pilot, lambda: target.exists())
        saved = json.loads(target.read_text())
        assert saved["eval_set_id"] == "smoke-tests"
        assert saved["metadata"] == {}

        await to_widget(pilot, "files", "ctrl+g")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewEvalSetScreen))
        dialog = app.screen
        await to_widget(pilot, "new-name")
        await pilot.press(*"second")
        await to_widget(pilot, "new-id", "tab")
        await pilot.press(*"weather-v2")
        await to_widget(pilot, "new-agent", "tab")
        await pilot.press(*"not a spec", "enter")
        hint = dialog.query_one("#new-hint", Static)
        await wait_for(pilot, lambda: "expected MODULE:ATTR" in str(hint.render()))
        assert app.screen is dialog  # a malformed agent is refused, with why
        await pilot.press(*("backspace",) * len("not a spec"), *"pkg.agent:build", "enter")
        await wait_for(pilot, lambda: app.screen is editor(app))
        await wait_for(pilot, lambda: editor(app).document is not document)
        document = editor(app).document
        assert document is not None
        assert (document.header("eval_set_id"), document.agent) == ("weather-v2", "pkg.agent:build")


async def test_a_new_eval_set_with_accented_letters_gets_a_transliterated_slug(
    tmp_path: Path,
) -> None:
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await to_widget(pilot, "files")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewEvalSetScreen))
        await to_widget(pilot, "new-name")
        await pilot.press(*"Ünïcode Tests!")
        id_box = app.screen.query_one("#new-id", Input)
        await wait_for(pilot, lambda: id_box.placeholder == "unicode-tests")
        await pilot.press("enter")
        await wait_for(pilot, lambda: editor(app).document is not None)
        document = editor(app).document
        assert document is not None and document.header("eval_set_id") == "unicode-tests"


async def test_f2_sets_the_id_and_the_agent_undoably_and_keeps_the_cases(weather_set: Path) -> None:
    before = weather_set.read_text()
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetDetailsScreen))
        dialog = app.screen
        id_box = dialog.query_one("#set-id", Input)
        assert id_box.value == json.loads(before)["eval_set_id"]  # the builder's UUID
        id_box.focus()
        await to_widget(pilot, "set-id")  # focus() is queued: keys before it go elsewhere
        await pilot.press("ctrl+a", "ctrl+k", "enter")  # an empty id is refused
        problem = dialog.query_one("#set-problem", Static)
        await wait_for(pilot, lambda: "cannot be empty" in str(problem.render()))
        assert app.screen is dialog
        await pilot.press(*"weather")
        await to_widget(pilot, "set-agent", "tab")
        await pilot.press(*"sample_evals.weather_graph:build_graph", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.sub_title.endswith("● unsaved")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: weather_set.read_text() != before)
        saved = json.loads(weather_set.read_text())
        assert saved["eval_set_id"] == "weather"
        assert saved["metadata"] == {"agent": "sample_evals.weather_graph:build_graph"}
        assert saved["eval_cases"] == json.loads(before)["eval_cases"]

        await pilot.press("ctrl+z")  # the agent
        assert screen.document is not None
        document = screen.document
        await wait_for(pilot, lambda: document.agent == "")
        await pilot.press("ctrl+z")  # the id
        await wait_for(pilot, lambda: document.to_text() == before)


async def test_a_file_made_while_the_files_are_counted_stays_listed(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file list's case counts are read in a thread; a new eval set made before that
    reading ends is still listed when it ends (the reading replaced the whole list)."""
    from tenxeval_tui.screens.editor import editor as editor_module

    counting, release = threading.Event(), threading.Event()
    describe = editor_module.describe_eval_set

    def slow_describe(path: Path) -> Any:
        counting.set()
        release.wait(timeout=scaled(60))
        return describe(path)

    monkeypatch.setattr(editor_module, "describe_eval_set", slow_describe)
    described: list[int] = []
    shown = EditorScreen._described

    def counting_described(self: EditorScreen, entries: Any) -> None:
        described.append(len(entries))
        shown(self, entries)

    monkeypatch.setattr(EditorScreen, "_described", counting_described)
    # The file opened is counted as it loads; the other one is counted in the thread.
    other = weather_set.with_name("zz_other.evalset.json")
    other.write_text(weather_set.read_text(encoding="utf-8"), encoding="utf-8")
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        await wait_for(pilot, counting.is_set)  # the counting is held
        await to_widget(pilot, "files", "ctrl+g")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewEvalSetScreen))
        await to_widget(pilot, "new-name")
        await pilot.press(*"second", "enter")
        new = weather_set.parent / "second.evalset.json"
        screen = editor(app)
        await wait_for(pilot, lambda: new in [e.path for e in screen.entries])
        release.set()
        await wait_for(pilot, lambda: len(described) == 1)  # the counts have arrived
        assert [e.path for e in screen.entries] == [weather_set, other, new]
        assert screen.entries[0].case_count == 2  # counted as it loaded
        assert screen.entries[1].case_count == 2  # counted in the thread
        assert screen.entries[2].ok and screen.entries[2].case_count == 0  # as made, unsaved
