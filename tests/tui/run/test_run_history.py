"""Runs of the workbench in a git repository: their reports record the commit, land in the
folder's history index as the run ends, and the history view (b, then t) shows them."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.history.index import INDEX_NAME
from tenxeval_tui.screens.reports.history import HistoryScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.evaluation.provenance.test_git import git
from tests.tui.browser_app import plain
from tests.waiting import wait_for

from .conftest import open_run_screen

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


async def test_workbench_runs_show_in_the_history_with_their_commit(workspace: Path) -> None:
    (workspace / ".gitignore").write_text("reports/\n__pycache__/\n")
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "first")
    commit = git(workspace, "rev-parse", "HEAD")
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the first run")
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        reports = app.screen
        await wait_for(pilot, lambda: len(reports.query_one(ReportList).entries) == 2)
        await pilot.press("H")  # the first look at the history makes the index
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        assert commit[:8] in plain(history.query_one("#history-run", Static))
        index = workspace / "reports" / INDEX_NAME
        assert index.is_file()

        await pilot.press("escape")  # the view (which follows the folder) is closed
        await wait_for(pilot, lambda: app.screen is reports)
        await pilot.press("r")  # run again: the run view adds its reports as they land
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 2, what="the second run")

        def indexed() -> int:
            with sqlite3.connect(index) as db:
                return int(db.execute("SELECT count(*) FROM reports").fetchone()[0])

        await wait_for(pilot, lambda: indexed() == 4, what="both runs' reports indexed")
        with sqlite3.connect(index) as db:
            assert {row[0] for row in db.execute("SELECT git_commit FROM reports")} == {commit}
