"""Editing commands through the keyboard: undo/redo, delete, reorder, filter, blocked save."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import notifications, to_field, to_widget, wait_for, wait_for_form


def ids(screen: EditorScreen) -> list[str]:
    assert screen.document is not None
    return [case.eval_id for case in screen.document.cases]


def shown_ids(screen: EditorScreen) -> list[str]:
    assert screen.document is not None
    uids = screen.query_one(CaseTable).visible_uids
    return [screen.document.case(uid).eval_id for uid in uids]


async def open_editor(app: WorkbenchApp) -> EditorScreen:
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen


async def test_case_commands_undo_and_redo(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        await pilot.press("ctrl+d")  # duplicate london
        await pilot.press("alt+down")  # move the copy below paris
        await pilot.press("delete")  # delete it, after confirming
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: ids(screen) == ["london", "paris"])
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: ids(screen) == ["london", "paris", "london_copy"])
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: ids(screen) == ["london", "london_copy", "paris"])
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: ids(screen) == ["london", "paris"])
        assert screen.sub_title == "weather.evalset.json"  # back to the saved state
        await pilot.press("ctrl+y", "ctrl+y")
        await wait_for(pilot, lambda: ids(screen) == ["london", "paris", "london_copy"])
        assert screen.sub_title.endswith("● unsaved")


async def test_typing_is_undone_field_by_field(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        await to_field(pilot, "eval_id", "enter")
        await to_field(pilot, "name", "tab")
        await pilot.press(*"Ldn")
        await to_field(pilot, "description", "tab")
        await to_field(pilot, "tags", "tab")
        await pilot.press("end", *", x")
        assert screen.document is not None
        document = screen.document
        await wait_for(pilot, lambda: document.cases[0].data["tags"] == ["smoke", "x"])
        case = screen.document.cases[0].data
        assert (case["name"], case["tags"]) == ("Ldn", ["smoke", "x"])
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: document.cases[0].data["tags"] == ["smoke"])
        case = screen.document.cases[0].data
        assert (case["name"], case["tags"]) == ("Ldn", ["smoke"])
        assert app.screen.query_one("#f-tags").value == "smoke"  # type: ignore[attr-defined]
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: document.cases[0].data["name"] == "")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: document.cases[0].data["name"] == "Ldn")


async def test_tool_calls_reorder_and_remove_by_keys(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        form = app.screen.query_one(CaseForm)
        form.focus_field("turns.0.user")
        await to_field(pilot, "turns.0.tools.1.name", "ctrl+o")  # a second call, on its name
        await pilot.press(*"search", "ctrl+up")  # move it first
        await wait_for(pilot, lambda: form.focused_key() == "turns.0.tools.0.args")
        assert screen.document is not None

        def calls() -> list[str]:
            assert screen.document is not None
            turn = screen.document.cases[0].data["conversation"][0]
            return [call["name"] for call in turn["expected_tool_trajectory"]]

        assert calls() == ["search", "get_weather"]
        assert form.focused_key() == "turns.0.tools.0.args"
        await pilot.press("ctrl+delete")  # remove the focused call
        await wait_for(pilot, lambda: calls() == ["get_weather"])
        form.focus_field("turns.0.nodes")
        await to_field(pilot, "turns.1.user", "alt+t")
        document = screen.document
        await pilot.press(*"next", "ctrl+delete")  # type in the new turn, then remove it
        await wait_for(pilot, lambda: len(document.cases[0].data["conversation"]) == 1)


async def test_filter_by_text_and_tag(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))  # the filter box
        await pilot.press(*"#smoke")
        await wait_for(pilot, lambda: shown_ids(screen) == ["london"])
        await pilot.press(*["backspace"] * 6, *"PARIS")
        await wait_for(pilot, lambda: shown_ids(screen) == ["paris"])
        await pilot.press("enter")  # back in the list, on the one shown case
        await wait_for(pilot, lambda: app.screen.focused is screen.query_one(CaseTable))
        assert screen.query_one(CaseForm).uid == screen.query_one(CaseTable).highlighted_uid


async def test_save_with_problems_lists_them_and_writes_nothing(weather_set: Path) -> None:
    before = weather_set.read_text()
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        form = screen.query_one(CaseForm)
        london = form.uid
        await pilot.press("down")
        await wait_for(pilot, lambda: form.uid not in (None, london), what="paris's form")
        await to_field(pilot, "eval_id", "enter")
        await pilot.press("ctrl+u", *"london")  # duplicate id
        table = screen.query_one(CaseTable)
        assert screen.document is not None
        document = screen.document
        await wait_for(pilot, lambda: document.problem_uids() == set(table.visible_uids))
        marked = screen.document.problem_uids()
        assert marked == set(table.visible_uids)  # both cases are marked
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "duplicate eval_id 'london'" in dialog.details
        await pilot.press("o")
        await wait_for(pilot, lambda: app.screen is screen)  # the dialog closed
        assert weather_set.read_text() == before
        await pilot.press("ctrl+z")  # the typing goes, the problem with it
        await wait_for(pilot, lambda: document.problem_uids() == set())
        await pilot.press("ctrl+s")  # saved this time (in a worker): the file as it was
        await wait_for(pilot, lambda: "Saved weather.evalset.json" in notifications(app))
    assert json.loads(weather_set.read_text()) == json.loads(before)


async def test_the_mouse_selects_cases_and_presses_form_buttons(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        assert await pilot.click(CaseTable, offset=(4, 1))  # the second row
        await pilot.pause()
        form = screen.query_one(CaseForm)
        assert screen.document is not None and form.uid is not None
        assert screen.document.case(form.uid).eval_id == "paris"
        assert await pilot.click("TurnEditor #add-call")  # on the first turn
        await pilot.pause()
        turn = screen.document.case(form.uid).data["conversation"][0]
        assert len(turn["expected_tool_trajectory"]) == 1
        assert form.focused_key() == "turns.0.tools.0.name"


async def test_eval_set_name_and_description_by_keys_saved_and_undone(weather_set: Path) -> None:
    from tenxeval_tui.screens.editor.eval_set_details import EvalSetDetailsScreen

    before = json.loads(weather_set.read_text())
    del before["description"]  # a hand-written file may have none
    weather_set.write_text(json.dumps(before, indent=2))
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for_form(pilot)
        screen = await open_editor(app)
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetDetailsScreen))
        await to_widget(pilot, "set-name")  # focused on mount: keys before go elsewhere
        await pilot.press("ctrl+a", "ctrl+k", *"Weather smoke")
        await to_widget(pilot, "set-description", "tab")
        await pilot.press(*"Cities we forecast")
        await pilot.press("ctrl+s")  # applies the dialog
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.sub_title.endswith("● unsaved")
        await pilot.press("ctrl+s")  # saves the file, in a worker
        await wait_for(pilot, lambda: not screen.sub_title.endswith("● unsaved"))
        saved = json.loads(weather_set.read_text())
        assert (saved["name"], saved["description"]) == ("Weather smoke", "Cities we forecast")
        assert list(saved) == [*before, "description"]  # key order kept, new key last

        await pilot.press("ctrl+z", "ctrl+z")  # description, then name
        assert screen.document is not None
        document = screen.document
        await wait_for(pilot, lambda: document.to_data() == before)  # no leftover null description

        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetDetailsScreen))
        await to_widget(pilot, "set-name")
        await pilot.press(*"ignored", "escape")  # cancel changes nothing
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.document.to_data() == before
