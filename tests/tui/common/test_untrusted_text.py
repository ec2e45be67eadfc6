"""Eval-set, agent and report text never drives the terminal, on any screen.

Each test runs the real app over a workspace holding the hostile corpus everywhere
(see :mod:`tests.tui.untrusted`), goes through its screens, and checks the bytes the
Textual driver was given: no escape sequence but Textual's own, no raw control
character, while the hostile text is on screen as glyphs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.eval_set_details import EvalSetDetailsScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.run.event_stream import EventStream
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.run.conftest import open_run_screen
from tests.tui.untrusted import (
    CASE_ID,
    HOSTILE_TEXT,
    RecordingDriver,
    assert_inert_output,
    hostile_case,
    plain_output,
    write_hostile_workspace,
)


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app writes to its (recorded) terminal, string by string."""
    RecordingDriver.written = []
    monkeypatch.setattr("textual.drivers.headless_driver.HeadlessDriver", RecordingDriver)
    return RecordingDriver.written


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_hostile_workspace(tmp_path / "project")


def _output(written: list[str]) -> str:
    return "".join(written)


async def _painted(pilot, written: list[str], *glyph_texts: str) -> str:
    """Wait until every one of ``glyph_texts`` has been written; the output so far."""

    def shown() -> bool:
        plain = plain_output(_output(written))
        return all(text in plain for text in glyph_texts)

    try:
        await wait_for(pilot, shown, timeout=20)
    except AssertionError:
        raise AssertionError(
            f"not painted: {glyph_texts}\n{plain_output(_output(written))}"
        ) from None
    return _output(written)


async def test_the_editor_shows_a_hostile_case_inertly(project: Path, written: list[str]):
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=(200, 70), notifications=True) as pilot:
        await wait_for_form(pilot)
        screen = app.screen
        assert screen.query_one("#f-eval_id", Input).value == inert(CASE_ID)
        user = screen.query_one("#f-turns-0-user", TextArea)
        assert user.text == inert("user " + HOSTILE_TEXT, multiline=True)
        # the case list, the form, the file list and the header are on screen
        output = await _painted(pilot, written, "case␛[2J␛]52;", "user before␛[2Jafter")
        assert_inert_output(output)

        written.clear()  # the eval set's details dialog
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetDetailsScreen))
        # the id (now a box of the dialog) shown inertly
        assert_inert_output(await _painted(pilot, written, "set␛]0;PWNED␇"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)  # the dialog closed

        written.clear()  # a confirmation naming the case
        screen.query_one(CaseTable).focus()
        await pilot.press("delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        # named as every other screen names it (␛, not a repr's \x1b)
        assert_inert_output(await _painted(pilot, written, "Delete case 'case␛[2J␛]52;"))
        assert "\\x1b" not in plain_output(_output(written))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)  # the question closed

        written.clear()  # a notification naming hostile text
        app.notify("Saved " + HOSTILE_TEXT, title="title\x1b]0;PWNED\x07")
        assert_inert_output(await _painted(pilot, written, "Saved before␛[2Jafter"))


async def test_the_error_view_shows_hostile_problems_inertly(project: Path, written: list[str]):
    broken = hostile_case()
    broken["conversation"] = "not a list \x1b]0;PWNED\x07"
    (project / "hostile.evalset.json").write_text(
        json.dumps({"eval_set_id": "x\x1b[2J", "eval_cases": [broken]}), encoding="utf-8"
    )
    (project / "bad\x1b]0;PWNED\x07.evalset.json").write_text("{\x1b[2J", encoding="utf-8")
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=(200, 70)) as pilot:
        await wait_for(pilot, lambda: app.screen.query_one("#detail").current == "error")
        assert_inert_output(await _painted(pilot, written, "does not load", "bad␛]0;PWNED␇"))


async def test_the_run_view_shows_an_agent_echoing_hostile_text_inertly(
    project: Path, written: list[str]
):
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=(200, 70)) as pilot:
        await wait_for_form(pilot)
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        written.clear()
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, timeout=60)
        stream = screen.query_one(EventStream)
        await wait_for(pilot, lambda: stream.shown > 0)
        # the case row, its title, the events (node, tool call, reply) and the outcome
        output = await _painted(pilot, written, "ROUTER␛]0;PWNED␇", "look␛[2Jup")
        assert_inert_output(output)


async def test_reports_comparison_and_case_details_show_hostile_text_inertly(
    project: Path, written: list[str]
):
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=(200, 70)) as pilot:
        await wait_for_form(pilot)
        written.clear()
        await pilot.press("b")  # the report list
        assert_inert_output(await _painted(pilot, written, "set name before␛[2Jafter"))

        written.clear()
        await pilot.press("enter")  # the newest report
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        report = app.screen
        await wait_for(pilot, lambda: report.document is not None and bool(report.visible_rows))
        assert_inert_output(await _painted(pilot, written, "case␛[2J"))

        written.clear()
        await pilot.press("enter")  # the case: turns, diffs, trajectory, criteria, error
        await wait_for(pilot, lambda: report.showing_case is not None)
        assert_inert_output(await _painted(pilot, written, "judge before␛[2Jafter", "error "))

        written.clear()
        await pilot.press("escape", "c")  # compare with the other report
        await wait_for(pilot, lambda: bool(app.screen.query("#baseline-list")))
        await wait_for(pilot, lambda: app.screen.query_one("#baseline-list").row_count > 0)
        assert_inert_output(await _painted(pilot, written, "Compare "))
        written.clear()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))
        compare = app.screen
        await wait_for(pilot, lambda: bool(compare.comparison and compare.visible_cases))
        assert_inert_output(await _painted(pilot, written, "case␛[2J", "Baseline "))

        written.clear()
        await pilot.press("enter")  # the case from both runs
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        assert_inert_output(
            await _painted(pilot, written, "Baseline (passed)", "error before␛[2Jafter")
        )


async def test_control_characters_save_byte_for_byte_unless_their_field_is_edited(
    project: Path, written: list[str]
):
    path = project / "hostile.evalset.json"
    before_text = path.read_text(encoding="utf-8")
    before = json.loads(before_text)
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=(200, 70)) as pilot:
        await wait_for_form(pilot)
        screen = app.screen
        # one edit in one field (the name): append a word at its end
        name = screen.query_one("#f-name", Input)
        name.focus()
        await pilot.pause()
        await pilot.press("end", "space", "o", "k")
        await wait_for(pilot, lambda: bool(screen.document and screen.document.dirty))
        # and one in the user message: the first glyph (the ESC of "\x1b[2J") is deleted
        user = screen.query_one("#f-turns-0-user", TextArea)
        user.focus()
        user.move_cursor((0, len("user before") + 1))
        await pilot.press("backspace")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: path.read_text(encoding="utf-8") != before_text)
    after = json.loads(path.read_text(encoding="utf-8"))
    case, old = after["eval_cases"][0], before["eval_cases"][0]
    assert case["name"] == old["name"] + " ok"  # its controls kept, the typed text added
    user_text = old["conversation"][0]["user_content"]["content"]
    assert user_text.startswith("user before\x1b[2J")
    expected_user = user_text.replace("before\x1b[2J", "before[2J", 1)
    assert case["conversation"][0]["user_content"]["content"] == expected_user
    # every field nobody edited is as it was, control characters and all
    for key in ("eval_id", "description", "tags", "session_input", "metadata"):
        assert case[key] == old[key]
    turn, old_turn = case["conversation"][0], old["conversation"][0]
    assert turn["expected_final_response"] == old_turn["expected_final_response"]
    assert turn["expected_tool_trajectory"] == old_turn["expected_tool_trajectory"]
    assert turn["expected_node_order"] == old_turn["expected_node_order"]
    assert {k: v for k, v in after.items() if k != "eval_cases"} == {
        k: v for k, v in before.items() if k != "eval_cases"
    }


@pytest.mark.parametrize("typed", ["a\x1b]0;x\x07b", "tab\there", "c1\x9b", "gnp\u202eexe"])
def test_a_new_eval_set_name_with_a_control_or_bidi_character_is_refused(
    tmp_path: Path, typed: str
):
    from tenxeval_tui.screens.editor.new_eval_set import new_eval_set_path

    path, hint = new_eval_set_path(tmp_path, typed)
    assert path is None
    assert "control character" in hint
