"""The run view says what each running case is doing now: its clock, its step in flight,
slow cases, each step's duration (a real worker; an agent whose tool waits to be released)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.case_now import CaseNow
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.waiting import wait_for

from .conftest import open_run_screen, write_workspace

# get_weather for Rome waits until the file RELEASE exists (the test creates it).
BLOCKING_AGENT = """
import asyncio
from pathlib import Path
from tenxeval_tui.evaluation import Trace

RELEASE = Path(__file__).with_name("release")


async def get_weather(city: str) -> str:
    while city == "Rome" and not RELEASE.exists():
        await asyncio.sleep(0.02)
    return f"sunny in {city}"


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    trace.node("MAIN", tool_calls=["get_weather"])
    try:
        report = await trace.tool("get_weather", {"city": city}, get_weather)
    except TimeoutError:  # the tool call was ended from the run view
        trace.node("MAIN", response="The weather service timed out.")
        return "The weather service timed out."
    reply = f"It is {report}."
    trace.node("MAIN", response=reply)
    return reply
"""


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def clocked_app(root: Path, clock: FakeClock) -> WorkbenchApp:
    class App(WorkbenchApp):
        MODES: ClassVar[dict[str, Any]] = {
            **WorkbenchApp.MODES,
            "run": lambda: RunScreen(clock=clock),
        }

    return App(root)


def row_text(screen: RunScreen, key: str) -> str:
    table = screen.query_one(RunCaseTable)
    return " ".join(cell.plain for cell in table.cells_of(key))


def rome_workspace(tmp_path: Path, slow: int | None = None) -> Path:
    root = write_workspace(tmp_path / "project", agent_code=BLOCKING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()
    if slow is not None:
        settings = root / "pyproject.toml"
        settings.write_text(
            settings.read_text("utf-8") + f"slow_case_seconds = {slow}\n", encoding="utf-8"
        )
    return root


async def start_and_select_rome(pilot: Pilot[Any]) -> RunScreen:
    screen = await open_run_screen(pilot)
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: screen.live is not None and "cities::rome" in screen.live.cases)
    table = screen.query_one(RunCaseTable)
    await wait_for(pilot, lambda: table.has_key("cities::rome"))
    table.move_to("cities::rome")
    await wait_for(pilot, lambda: screen.selected == "cities::rome")
    return screen


async def test_a_blocked_tool_call_shows_in_its_row_and_over_its_events_with_a_ticking_clock(
    tmp_path: Path,
) -> None:
    root = rome_workspace(tmp_path)
    clock = FakeClock()
    async with clocked_app(root, clock).run_test(size=(160, 45)) as pilot:
        screen = await start_and_select_rome(pilot)
        calling = 'calling get_weather(city="Rome")'
        await wait_for(pilot, lambda: calling in row_text(screen, "cities::rome"))
        now = screen.query_one(CaseNow)
        await wait_for(pilot, lambda: calling in str(now.render()))
        assert "0:00:00" in row_text(screen, "cities::rome")

        clock.now += 4
        screen.tick()
        await wait_for(pilot, lambda: f"{calling} 0:00:04" in row_text(screen, "cities::rome"))
        await wait_for(pilot, lambda: f"{calling} 0:00:04" in str(now.render()))
        assert "0:00:04" in screen.query_one(RunCaseTable).cells_of("cities::rome")[3].plain
        # The other cases ran to the end meanwhile; Rome is still running.
        await wait_for(pilot, lambda: screen.live is not None and screen.live.completed == 2)
        assert "running" in row_text(screen, "cities::rome")

        (root / "release").write_text("go", encoding="utf-8")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        assert calling not in row_text(screen, "cities::rome")
        assert not now.display  # nothing in flight any more
        events = screen.query_one(EventStream)
        tool_lines = [line for line in events.lines if "⚙ get_weather" in line]
        # One line for the call (its start is not a line of its own), with its duration.
        assert len(tool_lines) == 1
        assert tool_lines[0].rstrip().endswith("s]")


async def test_a_case_running_past_the_soft_limit_shows_as_slow(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path, slow=30)
    clock = FakeClock()
    async with clocked_app(root, clock).run_test(size=(160, 45)) as pilot:
        screen = await start_and_select_rome(pilot)
        await wait_for(pilot, lambda: "calling" in row_text(screen, "cities::rome"))
        assert "slow" not in row_text(screen, "cities::rome")
        clock.now += 31
        screen.tick()
        await wait_for(pilot, lambda: "▶ slow" in row_text(screen, "cities::rome"))
        time_cell = screen.query_one(RunCaseTable).cells_of("cities::rome")[3]
        assert "red" in str(time_cell.style)
        (root / "release").write_text("go", encoding="utf-8")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        assert "slow" not in row_text(screen, "cities::rome")


SLOW_GRAPH = """
import sys

sys.path.insert(0, {repo!r})
from sample_evals.weather_graph import build_graph


def slow_graph():
    return build_graph(delay=120)  # the scripted model takes its time
"""


async def test_a_10xgraph_model_call_in_flight_shows_as_thinking(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[3]
    root = write_workspace(
        tmp_path / "project",
        agent="slow_graph:slow_graph",
        agent_code=SLOW_GRAPH.format(repo=str(repo)),
    )
    (root / "weather_bot.py").rename(root / "slow_graph.py")
    (root / "evals" / "more.evalset.json").unlink()
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.live is not None and screen.live.cases)
        table = screen.query_one(RunCaseTable)
        await wait_for(pilot, lambda: table.has_key("cities::paris"))
        await wait_for(pilot, lambda: "MAIN thinking" in row_text(screen, "cities::paris"))
        await wait_for(pilot, lambda: "MAIN thinking" in str(screen.query_one(CaseNow).render()))
        await screen.cancel_run()
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        assert "thinking" not in row_text(screen, "cities::paris")
