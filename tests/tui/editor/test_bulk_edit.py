"""Bulk edits in the editor: space selects cases, ctrl+b edits them all, ctrl+z undoes."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.bulk_edit import BulkEditScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import notifications, to_widget, wait_for, wait_for_form


async def test_a_bulk_tag_edit_and_its_undo(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.document is not None
        document = editor.document
        table = editor.query_one(CaseTable)
        await to_widget(
            pilot, "cases", "ctrl+l"
        )  # focus() is queued: spaces before it go elsewhere
        await pilot.press("space", "space")
        await wait_for(pilot, lambda: len(table.chosen_uids) == 2)
        assert table.row_segments(0, 60)[0].text.startswith(" ✓london")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: isinstance(app.screen, BulkEditScreen))
        await to_widget(pilot, "bulk-operation")  # focused on mount
        await to_widget(pilot, "bulk-value", "tab")
        await pilot.press(*"regression", "enter")
        await wait_for(pilot, lambda: app.screen is editor)
        await wait_for(pilot, lambda: all("regression" in c.data["tags"] for c in document.cases))
        assert [c.data["tags"] for c in document.cases] == [["smoke", "regression"], ["regression"]]
        await pilot.press("ctrl+z")  # one step for both cases
        await wait_for(pilot, lambda: [c.data["tags"] for c in document.cases] == [["smoke"], []])
        assert not document.dirty


async def test_bulk_edit_without_a_selection_says_how(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        await pilot.press("ctrl+l", "ctrl+b")
        await wait_for(
            pilot,
            lambda: any(
                n == "Select cases first: space in the case list." for n in notifications(app)
            ),
        )
        assert not isinstance(app.screen, BulkEditScreen)
