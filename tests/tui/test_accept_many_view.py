"""Accept several cases' replies from the report browser: one dialog listing them with
what changes, one write through the editor's document, one ctrl+z there undoes them all."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tests.authoring.test_accept_many import EVAL_SET, replies, run
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, until


async def project(tmp_path: Path) -> Path:
    """An eval set written a minute ago, and a report of a real run of it."""
    eval_set = tmp_path / "cities.evalset.json"
    eval_set.write_text(EVAL_SET, encoding="utf-8")
    past = time.time() - 60
    os.utime(eval_set, (past, past))
    report = await run(eval_set)
    report.to_file(tmp_path / "eval_reports" / "cities_20261204_120000.json")
    return eval_set


def notices(app: object) -> list[str]:
    return [n.message for n in app._notifications]  # type: ignore[attr-defined]


async def test_accept_replies_lists_the_cases_and_one_ctrl_z_undoes_them(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_current_report(pilot, count=1)
        assert "A" in {getattr(b, "key", "") for b in ReportScreen.BINDINGS}
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "2 case(s)" in dialog.question
        assert dialog.details.splitlines()[:2] == [
            "oslo: 'Snow in Oslo.' -> 'Heavy snow in Oslo today.'",
            "lima: 'Sun in Lima.' -> 'Fog in Lima.'",
        ]
        assert "kyiv" not in dialog.details  # it also called another tool
        assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        await pilot.press("a")  # accept
        await until(pilot, lambda: any("now expect" in n for n in notices(app)))
        assert isinstance(app.screen, EditorScreen)
        editor = app.screen
        assert replies(eval_set) == {
            "rome": "Sunny in Rome.",
            "oslo": "Heavy snow in Oslo today.",
            "kyiv": "Sun in Kyiv.",
            "lima": "Fog in Lima.",
        }
        assert editor.document is not None and not editor.document.dirty
        await pilot.press("ctrl+z")  # one step takes both back
        await until(pilot, lambda: editor.document is not None and editor.document.dirty)
        assert not editor.document.can_undo
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        )
        assert screen.document is not None


async def test_accept_replies_refuses_when_the_file_changed_since(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    eval_set.write_text(EVAL_SET, encoding="utf-8")  # written after the run
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await open_current_report(pilot, count=1)
        await pilot.press("A")
        await until(pilot, lambda: any("changed on disk since this run" in n for n in notices(app)))
        assert not isinstance(app.screen, ChoiceScreen)
        assert eval_set.read_text(encoding="utf-8") == EVAL_SET


async def test_outside_the_workbench_the_replies_are_written_through_a_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_set = await project(tmp_path)
    monkeypatch.chdir(tmp_path)  # the workspace of a standalone browser: the current folder
    app = BrowserApp(tmp_path / "eval_reports")
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot, count=1)
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("a")
        await until(pilot, lambda: any("now expect" in n for n in notices(app)))
        assert replies(eval_set)["oslo"] == "Heavy snow in Oslo today."
        assert replies(eval_set)["lima"] == "Fog in Lima."
        assert replies(eval_set)["kyiv"] == "Sun in Kyiv."
