"""Accepting the reply changes exactly the reply: on every accept path (a report's case,
a compared case, the run view, accept-many) the file after is the file before with only
that turn's ``expected_final_response.content`` changed; its ``metadata``, unknown keys
of the reply, the turn and the case stay as the file has them."""

from __future__ import annotations

import copy
import json
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.reports.baseline_picker import BaselinePicker
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.authoring.test_accept_actual import run
from tests.tui.accept_setup import notices, report_project
from tests.tui.browser_app import SIZE, open_current_report
from tests.tui.run.conftest import open_run_screen
from tests.tui.run.test_run_accept import WRONG, sample_project
from tests.waiting import wait_for

KEPT_REPLY = {"note": "keep me", "source": "hand"}
EVAL_SET = """{
  "eval_set_id": "weather",
  "eval_cases": [
    {"eval_id": "rome", "conversation": [{"user_content": {"role": "user", "content": "Rome?"},
      "expected_final_response": {"role": "assistant", "content": "Sunny in Rome."}}]},
    {"eval_id": "oslo", "conversation": [{"user_content": {"role": "user", "content": "Oslo?"},
      "expected_final_response": {"role": "assistant", "content": "Snow in Oslo.",
        "metadata": {"note": "keep me", "source": "hand"}, "x_reply": 1},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Oslo"}}],
      "x_turn": "kept"}],
     "x_case": "kept"}
  ]
}
"""
NEW_REPLY = "Heavy snow in Oslo today."


def only_the_reply_changed(
    before: dict[str, Any], after: dict[str, Any], eval_id: str, reply: str
) -> None:
    expected = copy.deepcopy(before)
    case = next(c for c in expected["eval_cases"] if c["eval_id"] == eval_id)
    case["conversation"][0]["expected_final_response"]["content"] = reply
    assert after == expected


async def answer_reply_only(pilot: Pilot[None], app: WorkbenchApp) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await pilot.press("r")  # the reply only
    await wait_for(pilot, lambda: any("now expect" in n for n in notices(app)))


async def from_the_report(pilot: Pilot[None], app: WorkbenchApp) -> None:
    await pilot.press("b")
    screen = await open_current_report(pilot, count=2)
    await pilot.press("down", "enter")
    await wait_for(pilot, lambda: screen.showing_case is not None)
    await pilot.press("a")


async def from_accept_many(pilot: Pilot[None], app: WorkbenchApp) -> None:
    await pilot.press("b")
    screen = await open_current_report(pilot, count=2)
    table = screen.query_one(ReportCaseTable)
    await pilot.press("down", "space")
    await wait_for(pilot, lambda: table.mark_count == 1)
    await pilot.press("A")


async def from_the_comparison(pilot: Pilot[None], app: WorkbenchApp) -> None:
    await pilot.press("b")
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 2)
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, BaselinePicker))
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison)
    compare = app.screen
    assert isinstance(compare, CompareScreen)
    assert compare.visible_cases[0].eval_id == "oslo"  # regressed: listed first
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
    await pilot.press("a")


async def two_reports(tmp_path: Path) -> Path:
    """The eval set, its report, and an older one where oslo passed (a baseline)."""
    eval_set = await report_project(tmp_path, "weather", EVAL_SET, run)
    current = EvalReport.from_file(tmp_path / "eval_reports" / "weather_20261204_120000.json")
    older = current.model_copy(deep=True)
    older.timestamp -= 86_400
    oslo = older.get_case_result("oslo")
    assert oslo is not None
    oslo.passed = True
    older.to_file(tmp_path / "eval_reports" / "weather_20261203_120000.json")
    return eval_set


@pytest.mark.parametrize(
    "path_to_accept",
    [from_the_report, from_the_comparison, from_accept_many],
    ids=lambda step: step.__name__,
)
async def test_accepting_the_reply_from_the_browser_changes_only_the_reply(
    tmp_path: Path, path_to_accept: Callable[[Pilot[None], WorkbenchApp], Awaitable[None]]
) -> None:
    eval_set = await two_reports(tmp_path)
    before = json.loads(eval_set.read_text(encoding="utf-8"))
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await path_to_accept(pilot, app)
        await answer_reply_only(pilot, app)
        after = json.loads(eval_set.read_text(encoding="utf-8"))
        only_the_reply_changed(before, after, "oslo", NEW_REPLY)
        reply = after["eval_cases"][1]["conversation"][0]["expected_final_response"]
        assert reply["metadata"] == KEPT_REPLY


async def test_accepting_the_reply_in_the_run_view_changes_only_the_reply(tmp_path: Path) -> None:
    eval_set = sample_project(tmp_path / "project")
    data = json.loads(eval_set.read_text(encoding="utf-8"))
    case = next(c for c in data["eval_cases"] if c["eval_id"] == "wrong_status")
    case["conversation"][0]["expected_final_response"]["metadata"] = KEPT_REPLY
    eval_set.write_text(json.dumps(data, indent=2), encoding="utf-8")
    past = time.time() - 60  # written before the run
    os.utime(eval_set, (past, past))
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run")
        assert screen.live is not None
        for _ in range(len(screen.live.cases)):
            if screen.selected == WRONG:
                break
            await pilot.press("down")
        await wait_for(pilot, lambda: screen.selected == WRONG, what="wrong_status selected")
        await pilot.press("a")
        await answer_reply_only(pilot, app)
        after = json.loads(eval_set.read_text(encoding="utf-8"))
        only_the_reply_changed(
            data, after, "wrong_status", "Order A100 is shipped, expected Friday."
        )
