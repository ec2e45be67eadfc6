"""``u`` after a stopped rerun (the run view's ``f``): its complete reports hold the rerun's
cases, and the run view counts them so: the cases run now, those the rerun finished before
it stopped, and apart from both the cases carried over from the run it reran. A real
worker; an agent whose Rome case fails until it is armed, then blocks until released."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus
from tests.waiting import wait_for

from .conftest import open_run_screen, write_workspace
from .test_run_screen import message, report_marks

AGENT = """
import asyncio
from pathlib import Path
from tenxeval_tui.evaluation import Trace

HERE = Path(__file__).parent


async def get_weather(city: str) -> str:
    while city == "Rome" and not (HERE / "release").exists():
        await asyncio.sleep(0.02)
    return f"sunny in {city}"


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    if "boom" in message:
        raise RuntimeError("weather service down")
    if city == "Rome" and not (HERE / "armed").exists():
        trace.node("MAIN", response="no idea")
        return "no idea"
    trace.node("MAIN", tool_calls=["get_weather"])
    report = await trace.tool("get_weather", {"city": city}, get_weather)
    trace.node("MAIN", response=f"It is {report}.")
    return f"It is {report}."
"""


def rerun_finished(screen: object, key: str) -> bool:
    live = getattr(screen, "live", None)
    state = live.cases.get(key) if live is not None else None
    return state is not None and state.status == CaseStatus.FAILED and state.result is not None


async def test_the_rest_of_a_stopped_rerun_counts_what_its_reports_hold(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=AGENT)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")  # Rome and Oslo fail, Kyiv errors; Paris and Lima pass
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        (root / "armed").write_text("now Rome blocks", encoding="utf-8")
        await pilot.press("f")  # cities: Rome (blocks) and Oslo; more: Kyiv
        await wait_for(
            pilot, lambda: screen.runs_started == 2 and rerun_finished(screen, "cities::oslo")
        )
        await screen.cancel_run()  # stopped in cities: more never started
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        # its partial report holds Oslo only (before: "the 3 cases run now")
        assert "They hold the 1 cases run now; the 2 carried over" in message(screen)

        (root / "release").write_text("go", encoding="utf-8")
        await pilot.press("u")  # Rome and Kyiv
        await wait_for(pilot, lambda: screen.runs_finished == 3)
        assert screen.live is not None
        marks = report_marks(screen.live.report_files)  # the rerun's counts, each set's
        assert marks == {
            "cities": {"by": "rerun_failed", "cases": 2, "of": 3},
            "more": {"by": "rerun_failed", "cases": 1, "of": 2},
        }
        # before: "the 2 run now and the 3 finished before" (Paris and Lima counted in)
        assert (
            "They hold every case of the run: the 2 run now and the 1 finished before. The 2 "
            "carried over from earlier are in the reports of the runs that ran them."
        ) in message(screen)
