"""f4 in the editor: rows of a CSV, TSV or JSONL file become cases of the open eval set, as
one undo step; a file with bad rows adds nothing and its problems are shown at their lines."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.path_dialog import PathDialog
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tests.tui.browser_app import plain
from tests.tui.conftest import notifications, to_widget, wait_for, wait_for_form


def ids(screen: EditorScreen) -> list[str]:
    assert screen.document is not None
    return [case.eval_id for case in screen.document.cases]


async def _import(pilot, app: WorkbenchApp, path: Path) -> PathDialog:  # type: ignore[no-untyped-def]
    await pilot.press("f4")
    await wait_for(pilot, lambda: isinstance(app.screen, PathDialog))
    await to_widget(pilot, "path-input")  # composed and focused on mount, after the push
    dialog = app.screen
    assert isinstance(dialog, PathDialog)
    dialog.query_one("#path-input", Input).value = str(path)
    await pilot.press("enter")
    return dialog


async def test_csv_rows_become_cases_and_one_undo_takes_them_back(
    weather_set: Path, tmp_path: Path
) -> None:
    rows = tmp_path / "more.csv"
    rows.write_text(
        "id,question,answer,tags\n"
        "rome,Weather in Rome?,Sunny.,smoke\n"
        "london,Weather in London again?,Rainy.,\n"
    )
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        await _import(pilot, app, rows)
        await wait_for(pilot, lambda: len(ids(screen)) == 4)
        assert ids(screen) == ["london", "paris", "rome", "london_2"]
        assert screen.document is not None
        rome = screen.document.cases[2].data
        assert rome["conversation"][0]["user_content"]["content"] == "Weather in Rome?"
        assert rome["tags"] == ["smoke"]
        form = screen.query_one(CaseForm)
        assert form.uid == screen.document.cases[2].uid  # the first imported case is shown
        await wait_for(
            pilot, lambda: any("Imported 2 case(s) from more.csv" in t for t in notifications(app))
        )
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: ids(screen) == ["london", "paris"])
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: len(ids(screen)) == 4)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: len(json.loads(weather_set.read_text())["eval_cases"]) == 4,
        )


async def test_bad_rows_add_nothing_and_are_shown_at_their_lines(
    weather_set: Path, tmp_path: Path
) -> None:
    rows = tmp_path / "bad.jsonl"
    rows.write_text('{"query": "fine"}\n[1, 2]\n{"query": ""}\n')
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        await _import(pilot, app, rows)
        await wait_for(pilot, lambda: any("Nothing imported" in t for t in notifications(app)))
        (message,) = [t for t in notifications(app) if "Nothing imported" in t]
        assert f"{rows}:2:" in message and f"{rows}:3:" in message
        assert ids(screen) == ["london", "paris"]
        assert screen.document is not None and not screen.document.can_undo


async def test_a_file_that_is_no_table_is_refused_in_the_dialog(
    weather_set: Path, tmp_path: Path
) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        dialog = await _import(pilot, app, tmp_path / "notes.txt")
        await wait_for(
            pilot, lambda: "not a .csv" in plain(dialog.query_one("#path-problem", Static))
        )
        assert app.screen is dialog
        dialog2_missing = tmp_path / "missing.csv"
        dialog.query_one("#path-input", Input).value = str(dialog2_missing)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: "file not found" in plain(dialog.query_one("#path-problem", Static))
        )
