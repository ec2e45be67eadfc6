"""The case form and the footer are reused, not rebuilt: what they show still follows.

Moving through the case list puts each case's texts in the fields already there (only a
turn whose tool calls differ in number is built anew), and the footer is rebuilt only
when the keys it shows change. Each test checks both that the widgets stayed and that
what they show is the new case's (or the new focus's).
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.compose import compose
from textual.widgets import Input, TextArea
from textual.widgets._footer import FooterKey

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.editor.tool_call_row import ToolCallRow
from tenxeval_tui.widgets.editor.turn_editor import TurnEditor
from tests.tui.conftest import to_field, wait_for, wait_for_form


def three_cases(folder: Path) -> Path:
    path = folder / "three.evalset.json"
    (
        EvalSetBuilder("three")
        .add_case(
            "Weather in London?",
            "Sunny.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London"})],
            case_id="london",
        )
        .add_case(
            "Weather in Lima?",
            "Rain.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "Lima"})],
            case_id="lima",
        )
        .add_multi_turn([("Hi", "Hello!"), ("Paris?", "18C.")], case_id="paris")
        .save(path)
    )
    return path


HEAD = ["eval_id", "name", "description", "tags"]
TAIL = ["session.user_id", "session.state", "session.config", "metadata"]


def turn_keys(turn: int, calls: int) -> list[str]:
    tools = [f"turns.{turn}.tools.{c}.{part}" for c in range(calls) for part in ("name", "args")]
    return [f"turns.{turn}.user", f"turns.{turn}.expected", *tools, f"turns.{turn}.nodes"]


def turn_of(app: WorkbenchApp, field: str) -> TurnEditor:
    """The turn editor holding the box of ``field``."""
    box = app.screen.query_one(f"#f-{field.replace('.', '-')}")
    return next(node for node in box.ancestors if isinstance(node, TurnEditor))


def row_of(app: WorkbenchApp, field: str) -> ToolCallRow:
    """The tool call row holding the box of ``field``."""
    box = app.screen.query_one(f"#f-{field.replace('.', '-')}")
    return next(node for node in box.ancestors if isinstance(node, ToolCallRow))


def shown_keys(form: CaseForm) -> list[str]:
    return [field.key for field in form.fields]


def text_of(app: WorkbenchApp, field: str) -> str:
    box = app.screen.query_one(f"#f-{field.replace('.', '-')}")
    assert isinstance(box, Input | TextArea)
    return box.value if isinstance(box, Input) else box.text


async def test_the_next_case_is_shown_in_the_same_fields(tmp_path: Path) -> None:
    app = WorkbenchApp(three_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        eval_id = app.screen.query_one("#f-eval_id")
        user = app.screen.query_one("#f-turns-0-user")
        await pilot.press("down")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima", what="lima shown")
        assert app.screen.query_one("#f-eval_id") is eval_id  # the same widgets
        assert app.screen.query_one("#f-turns-0-user") is user
        assert text_of(app, "turns.0.user") == "Weather in Lima?"
        assert text_of(app, "turns.0.tools.0.args") == '{"city": "Lima"}'
        assert app.screen.document is not None and not app.screen.document.dirty
        await pilot.press("down")  # two turns, no tool call: the first turn's row is hidden
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "paris", what="paris shown")
        assert app.screen.query_one("#f-eval_id") is eval_id
        assert app.screen.query_one("#f-turns-0-user") is user
        assert text_of(app, "turns.0.user") == "Hi"
        assert text_of(app, "turns.1.user") == "Paris?"
        assert shown_keys(form) == [*HEAD, *turn_keys(0, 0), *turn_keys(1, 0), *TAIL]
        assert not row_of(app, "turns.0.tools.0.name").display
        assert form.uid == app.screen.query_one(CaseTable).highlighted_uid
        second_turn = app.screen.query_one("#f-turns-1-user")
        await pilot.press("up")  # back to one turn: the second turn is hidden, kept
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima", what="lima again")
        assert shown_keys(form) == [*HEAD, *turn_keys(0, 1), *TAIL]
        assert app.screen.query_one("#f-turns-1-user") is second_turn
        assert not turn_of(app, "turns.1.user").display
        # the region follows at the next layout, which may come after the text is shown
        # (a clean clone's suite under load read the old height, 10)
        hidden = turn_of(app, "turns.1.user")
        await wait_for(pilot, lambda: hidden.region.height == 0, what="the turn laid out hidden")
        assert text_of(app, "turns.1.user") == ""  # no stale text behind it
        assert not form.focus_field("turns.1.user")  # not a field of the case shown
        assert text_of(app, "turns.0.tools.0.name") == "get_weather"
        assert app.screen.document is not None and not app.screen.document.dirty
        await pilot.press("down", "down")  # the hidden turn shown again, with paris's text
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "paris", what="paris again")
        assert app.screen.query_one("#f-turns-1-user") is second_turn
        assert turn_of(app, "turns.1.user").display
        assert text_of(app, "turns.1.user") == "Paris?"


async def test_an_edit_in_a_turn_the_next_case_hides_stays_with_its_case(tmp_path: Path) -> None:
    """An edit typed into the second turn, then a move to a case of one turn: the edit
    is the case's it was typed in, and the hidden turn gives nothing to the next case
    (neither when moving nor when saving)."""
    path = three_cases(tmp_path)
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "paris", what="paris shown")
        await to_field(pilot, "eval_id", "enter")
        app.screen.query_one(CaseForm).focus_field("turns.1.user")
        await pilot.press("end", *" And Rome?", "ctrl+l", "up", "ctrl+s")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima", what="lima shown")
        await wait_for(
            pilot, lambda: app.screen.document is not None and not app.screen.document.dirty
        )
        saved = json.loads(path.read_text(encoding="utf-8"))["eval_cases"]
        assert saved[2]["conversation"][1]["user_content"]["content"] == ("Paris? And Rome?")
        assert [len(case["conversation"]) for case in saved] == [1, 1, 2]
        assert saved[1]["conversation"][0]["user_content"]["content"] == ("Weather in Lima?")


async def test_an_edit_after_moving_goes_to_the_case_shown(tmp_path: Path) -> None:
    path = three_cases(tmp_path)
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        await pilot.press("down")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima", what="lima shown")
        await to_field(pilot, "eval_id", "enter")
        await pilot.press("end", *"_2", "ctrl+z")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima", what="the undo shown")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: text_of(app, "eval_id") == "lima_2", what="the redo")
        document = app.screen.document
        assert document is not None
        assert [case.eval_id for case in document.cases] == ["london", "lima_2", "paris"]
        table = app.screen.query_one(CaseTable)
        assert "lima_2" in str(table.row_segments(1, 80)[-1].text)


async def test_the_footer_follows_the_focus_and_stays_when_its_keys_do(tmp_path: Path) -> None:
    app = WorkbenchApp(three_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)

        def keys() -> list[str]:
            return [key.description for key in app.screen.query(FooterKey)]

        await wait_for(pilot, lambda: "Delete case" in keys(), what="the list's keys")
        before = list(app.screen.query(FooterKey))
        await to_field(pilot, "eval_id", "enter")  # the form: the list's keys go
        await wait_for(pilot, lambda: "Delete case" not in keys(), what="the form's keys")
        in_form = list(app.screen.query(FooterKey))
        # The key widgets already there show the form's keys (none built anew for them),
        # the command palette's key stays the last, docked apart.
        shared = min(len(before), len(in_form)) - 1
        assert in_form[:shared] == before[:shared]
        assert in_form[-1] is before[-1] and in_form[-1].has_class("-command-palette")
        footer = app.screen.query_one(SteadyFooter)
        with footer._context():  # as the footer composes (its keys bind to its compact)
            rebuilt = compose(footer)  # what a footer built anew would show
        assert [(k.key_display, k.description) for k in in_form] == [
            (k.key_display, k.description) for k in rebuilt
        ]
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Delete case" in keys(), what="the list's keys again")
        await pilot.press("r")
        await wait_for(pilot, lambda: "Watch" in keys(), what="the run view's keys")
        await pilot.press("e")
        await wait_for(pilot, lambda: "Delete case" in keys(), what="the editor's keys")
        shown = list(app.screen.query(FooterKey))
        await pilot.press("r")
        await wait_for(pilot, lambda: "Watch" in keys(), what="the run view's keys")
        await pilot.press("e")
        await wait_for(pilot, lambda: "Delete case" in keys(), what="the editor's keys")
        await pilot.pause()
        assert list(app.screen.query(FooterKey)) == shown  # the same keys: not rebuilt
        assert [k.description for k in shown] == [k.description for k in before]
