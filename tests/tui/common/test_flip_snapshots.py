"""How the flip marks look at 80x24: the editor's case list (legend, the case form's line)
and the run view's case table after a run (pytest-textual-snapshot)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.tui.common.test_flip_marks import BAD, OK, set_id_of, write_run
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.run.conftest import open_run_screen, write_workspace
from tests.tui.run.test_run_snapshots import StableApp

SIZE = (80, 24)


def test_editor_with_a_flipped_case(snap_compare: Any, weather_set: Path) -> None:
    reports = weather_set.parent / "eval_reports"
    weather = set_id_of(weather_set)
    write_run(reports, 0, {"london": OK, "paris": OK}, weather)
    write_run(reports, 1, {"london": OK, "paris": [True, False, True]}, weather)

    async def flipped(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, EditorScreen)
        table = screen.query_one(CaseTable)
        await wait_for(pilot, lambda: len(table.flipped_uids) == 1)
        await pilot.press("ctrl+l", "down")  # paris: the form says how it flipped
        await wait_for(pilot, lambda: bool(screen.query_one("#case-flips").display))
        await pilot.pause()

    app = WorkbenchApp(weather_set.parent, watch_files=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=flipped)


def test_run_view_with_a_flipped_case(snap_compare: Any, tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")
    write_run(root / "reports", 0, {"paris": OK, "rome": OK, "oslo": BAD}, "cities")
    write_run(root / "reports", 1, {"paris": OK, "rome": BAD, "oslo": BAD}, "cities")

    async def finished(pilot: Pilot[Any]) -> None:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        screen = pilot.app.screen
        assert isinstance(screen, RunScreen)
        await wait_for(pilot, lambda: screen.runs_finished == 1, timeout=120)
        marks = screen.flip_marks
        table = screen.query_one(RunCaseTable)
        await wait_for(
            pilot,
            lambda: (
                "cities" in marks.histories
                and marks.histories["cities"].runs == 3
                and table.flipped_keys == ["cities::rome"]
            ),
        )
        screen.repaint()
        await pilot.pause()

    assert snap_compare(StableApp(root, watch_files=False), terminal_size=SIZE, run_before=finished)
