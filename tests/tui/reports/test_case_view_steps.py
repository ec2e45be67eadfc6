"""Moving through a report's cases with one open: each case's sections take the room they
need (laid out again when a section's height changes, and only then), and an expected node
order read from the eval set file shows with the case, in the step of the key."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.case_source import FileNodeOrders
from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.widgets.reports.criteria_table import CriteriaTable
from tests.authoring.test_accept_actual import run
from tests.report_samples import case
from tests.tui.accept_setup import report_project
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, open_first_case, plain
from tests.waiting import wait_for

LONG_REASON = "The reply is checked claim by claim against the forecast. " * 8

TWO_CASES_SET = """{
  "eval_set_id": "weather",
  "eval_cases": [
    {"eval_id": "rome", "conversation": [{"user_content": {"role": "user", "content": "Rome?"},
      "expected_final_response": {"role": "assistant", "content": "Sunny in Rome."},
      "expected_node_order": ["agent", "answer"]}]},
    {"eval_id": "oslo", "conversation": [{"user_content": {"role": "user", "content": "Oslo?"},
      "expected_final_response": {"role": "assistant", "content": "Rain in Oslo."},
      "expected_node_order": ["agent", "tools", "answer"]}]}
  ]
}
"""


async def test_a_section_that_grows_or_shrinks_moves_the_sections_below(tmp_path: Path) -> None:
    cases = [case("paris"), case("rome", reason=LONG_REASON), case("oslo")]
    EvalReport.create("weather", cases).to_file(tmp_path / "r.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        criteria = screen.query_one(CriteriaTable)
        tokens = screen.query_one("#case-tokens", Static)
        await wait_for(pilot, lambda: criteria.region.height > 0, what="the criteria laid out")
        short = criteria.region.height
        assert tokens.region.y > criteria.region.y + short - 1
        for key, eval_id in (("down", "rome"), ("down", "oslo"), ("up", "rome")):
            await pilot.press(key)
            await wait_for(pilot, lambda e=eval_id: screen.showing_case.eval_id == e)  # type: ignore[union-attr]

            def laid_out(e: str = eval_id) -> bool:  # the next layout, after the case shown
                height = criteria.region.height
                return (height > short + 2) if e == "rome" else (height == short)

            await wait_for(pilot, laid_out, what=f"the criteria table laid out for {eval_id}")
            assert "forecast" in plain(criteria) if eval_id == "rome" else True
            assert tokens.region.y >= criteria.region.bottom  # below it, not under it


@pytest.fixture
def look_ups_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """While the event is clear, a look-up in the eval set files waits (after the first)."""
    release = threading.Event()
    real = FileNodeOrders.find
    calls = 0

    def find(self: FileNodeOrders, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 1:
            release.wait(30)
        return real(self, *args)

    monkeypatch.setattr(FileNodeOrders, "find", find)
    yield release
    release.set()


async def test_the_node_order_from_the_file_shows_with_the_next_case(
    tmp_path: Path, look_ups_held: threading.Event
) -> None:
    await report_project(tmp_path, "weather", TWO_CASES_SET, run)  # no node-order criterion
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_first_case(pilot, count=1)
        nodes = screen.query_one("#node-order", Static)
        first = screen.showing_case.eval_id  # type: ignore[union-attr]
        await wait_for(pilot, lambda: "(from weather.evalset.json" in plain(nodes))
        await pilot.press("down")  # its look-up in the files is held
        assert screen.showing_case is not None and screen.showing_case.eval_id != first
        expected = "agent → answer" if first == "oslo" else "agent → tools → answer"
        shown = plain(nodes)
        assert expected in shown and "(from weather.evalset.json" in shown
        look_ups_held.set()
