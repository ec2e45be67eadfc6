"""The case form follows the list's cursor in the key's own step when it can, and never
shows, or edits, another case than the one under the cursor.

A key that moves the cursor shows the new case's texts in the widgets already there
before the frame that draws the cursor (one frame per key, not two); when a field still
has keys to handle, or the case needs a widget the form lacks, the form follows a step
later, as before. Either way, after any burst of moves, the form shows the case under
the cursor and every key typed lands on the case it was typed into.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import to_field, wait_for, wait_for_form
from tests.tui.editor.test_editor_typing import burst, editor, typed


def mixed_cases(folder: Path, count: int = 12) -> Path:
    """Cases of one and two turns, with none, one or two tool calls, in turn."""
    builder = EvalSetBuilder("mixed")
    for index in range(count):
        calls = [ToolCall(name=f"tool_{index}", args={"n": c}) for c in range(index % 3)]
        if index % 4 == 3:
            builder.add_multi_turn(
                [(f"Question {index}?", f"Answer {index}."), ("And then?", None)],
                case_id=f"case_{index}",
                expected_tools=calls,
                name=f"name {index}" * (1 + index % 2),
                tags=["t"] * (index % 2),
            )
        else:
            builder.add_case(
                f"Question {index}?",
                f"Answer {index}.",
                case_id=f"case_{index}",
                expected_tools=calls,
                name=f"name {index}" * (1 + index % 2),
                tags=["t"] * (index % 2),
            )
    path = folder / "mixed.evalset.json"
    builder.save(path)
    return path


def shows_case(app: WorkbenchApp, index: int) -> bool:
    """Whether the form shows case ``index`` whole: every field holds that case's text,
    and the list's cursor is on it."""
    screen = editor(app)
    document = screen.document
    assert document is not None
    uid = document.cases[index].uid
    form = screen.query_one(CaseForm)
    if form.uid != uid or screen.query_one(CaseTable).highlighted_uid != uid:
        return False
    return all(field.value == document.field_text(uid, field.key) for field in form.fields)


async def test_a_key_moving_the_cursor_shows_its_case_in_the_same_step(tmp_path: Path) -> None:
    app = WorkbenchApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        table = editor(app).query_one(CaseTable)
        await pilot.press("down", "down", "down", "up", "up", "up")  # every widget made once
        await wait_for(pilot, lambda: shows_case(app, 0), what="the first case")
        for index in (1, 2, 3, 4, 3, 2):
            if index > table.cursor:
                table.action_cursor_down()
            else:
                table.action_cursor_up()
            # no await: the form followed in the step of the key, before any frame
            assert shows_case(app, index), index


async def test_a_burst_of_moves_leaves_the_form_on_the_case_under_the_cursor(
    tmp_path: Path,
) -> None:
    app = WorkbenchApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        document = editor(app).document
        assert document is not None
        burst(app, ["down"] * 9 + ["up"] * 2 + ["pagedown", "home", "down"] * 2 + ["down"] * 5)
        await wait_for(pilot, lambda: shows_case(app, 6), what="case 7 in the form")
        await pilot.pause()
        assert shows_case(app, 6)
        assert not document.dirty  # moving edits nothing


async def test_keys_typed_before_a_move_stay_on_the_case_they_were_typed_into(
    tmp_path: Path,
) -> None:
    path = mixed_cases(tmp_path)
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        document = editor(app).document
        assert document is not None
        await to_field(pilot, "eval_id", "enter")
        await to_field(pilot, "name", "tab")
        # typed, then straight to the list and down twice, all before any is handled
        burst(app, ["end", *typed(" xyz"), "ctrl+l", "down", "down", *typed("jj")])
        await wait_for(pilot, lambda: shows_case(app, 4), what="case 5 in the form")
        await pilot.pause()
        names = [document.field_text(case.uid, "name") for case in document.cases[:5]]
        assert names == ["name 0 xyz", "name 1name 1", "name 2", "name 3name 3", "name 4"]
        assert shows_case(app, 4)


async def test_a_key_typed_into_the_filter_filters_the_list_and_shows_the_case_in_its_step(
    tmp_path: Path,
) -> None:
    app = WorkbenchApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        document = screen.document
        assert document is not None
        await pilot.press("down", "down", "down", "up", "up", "up")  # every widget made once
        await wait_for(pilot, lambda: shows_case(app, 0), what="the first case")
        box = screen.query_one("#filter", Input)
        box.focus()
        box.insert_text_at_cursor("name 2")  # as a key typed there does, in one step
        # no await: the list is filtered and the form shows the case now under the cursor
        assert screen.query_one(CaseTable).visible_uids == [document.cases[2].uid]
        assert shows_case(app, 2)
