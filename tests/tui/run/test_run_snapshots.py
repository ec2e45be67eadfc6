"""How the run screen looks mid-run and finished (a deterministic agent; timings hidden)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.waiting import wait_for

from .conftest import open_run_screen, write_workspace
from .test_run_live_steps import BLOCKING_AGENT

SIZE = (150, 32)

# Paris answers at once; Rome reports its first node, then waits (a case still running).
PAUSING_AGENT = """
import asyncio
from tenxeval_tui.evaluation import Trace

async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    trace.node("MAIN", tool_calls=["get_weather"], tokens={"input_tokens": 10, "output_tokens": 2})
    if city != "Paris":
        await asyncio.sleep(120)
    report = await trace.tool("get_weather", {"city": city}, lambda city: f"sunny in {city}")
    reply = f"It is {report}."
    trace.node("MAIN", response=reply, tokens={"input_tokens": 20, "output_tokens": 4})
    return reply
"""


class StableApp(WorkbenchApp):
    """The workbench with durations and elapsed time hidden (they differ run to run)."""

    MODES: ClassVar[dict[str, Any]] = {
        **WorkbenchApp.MODES,
        "run": lambda: RunScreen(timings=False),
    }


def screen_of(pilot: Pilot[Any]) -> RunScreen:
    screen = pilot.app.screen
    assert isinstance(screen, RunScreen)
    return screen


async def repainted(pilot: Pilot[Any], screen: RunScreen) -> None:
    """Show what the live state holds now (the screen's timer would, a frame later)."""
    screen.repaint()
    await pilot.pause()


async def _start(pilot: Pilot[Any], concurrency: str = "1") -> RunScreen:
    await open_run_screen(pilot)
    screen = screen_of(pilot)
    screen.query_one("#concurrency").value = concurrency  # type: ignore[attr-defined]
    await pilot.press("ctrl+r")
    return screen


def test_run_screen_mid_run(snap_compare: Any, tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=PAUSING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()

    async def mid_run(pilot: Pilot[Any]) -> None:
        screen = await _start(pilot)

        def rome_started() -> bool:
            live = screen.live
            return (
                live is not None
                and live.completed == 1
                and "cities::rome" in live.cases
                and len(live.cases["cities::rome"].events) == 1
            )

        await wait_for(pilot, rome_started)
        await repainted(pilot, screen)

    assert snap_compare(StableApp(root), terminal_size=SIZE, run_before=mid_run)


def test_run_screen_finished(snap_compare: Any, tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")

    async def finished(pilot: Pilot[Any]) -> None:
        screen = await _start(pilot, concurrency="2")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        await pilot.press("down", "down")  # Oslo: the failed case
        table = screen.query_one(RunCaseTable)
        await wait_for(pilot, lambda: table.selected_key == "cities::oslo")
        await repainted(pilot, screen)

    assert snap_compare(StableApp(root), terminal_size=SIZE, run_before=finished)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_run_screen_mid_run_sizes(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    """A tool call in flight (Rome's waits to be released): its row and the line over its
    events say so; at 100x30 every figure, and each case's time, tokens and scores show."""
    root = write_workspace(tmp_path / "project", agent_code=BLOCKING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()

    async def mid_run(pilot: Pilot[Any]) -> None:
        screen = await _start(pilot, concurrency="2")
        table = screen.query_one(RunCaseTable)

        def rome_calling() -> bool:
            live = screen.live
            if live is None or live.completed != 2 or "cities::rome" not in live.cases:
                return False
            step = live.cases["cities::rome"].current_step
            return step is not None and table.has_key("cities::rome")

        await wait_for(pilot, rome_calling)
        table.move_to("cities::rome")
        await wait_for(pilot, lambda: screen.selected == "cities::rome")
        await repainted(pilot, screen)

    try:
        assert snap_compare(StableApp(root), terminal_size=size, run_before=mid_run)
    finally:
        (root / "release").write_text("go", encoding="utf-8")  # the worker ends
