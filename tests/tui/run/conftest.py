"""A workspace on disk for the run screen: a deterministic agent, two eval sets, settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tests.waiting import wait_for

AGENT = '''
"""A deterministic plain agent: weather by city; "slow" waits, "boom" raises."""

import asyncio

from tenxeval_tui.evaluation import Trace


def get_weather(city: str) -> str:
    return f"sunny in {city}"


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    if "slow" in message:
        await asyncio.sleep(30)
    if "boom" in message:
        trace.node("MAIN", tool_calls=["get_weather"])
        raise RuntimeError("weather service down")
    trace.node("MAIN", tool_calls=["get_weather"], tokens={"input_tokens": 10, "output_tokens": 2})
    report = await trace.tool("get_weather", {"city": city}, get_weather)
    trace.node("TOOL")
    reply = f"It is {report}."
    trace.node("MAIN", response=reply, tokens={"input_tokens": 20, "output_tokens": 4})
    return reply
'''


def weather_case(builder: EvalSetBuilder, city: str, *, expect: str | None = None) -> None:
    builder.add_case(
        f"Weather in {city}?",
        f"It is sunny in {city}." if expect is None else f"Storms over {expect}, stay home.",
        expected_tools=[ToolCall(name="get_weather", args={"city": expect or city})],
        case_id=city.lower(),
        tags=["smoke"] if city == "Paris" else [],
    )


def save(builder: EvalSetBuilder, set_id: str, folder: Path) -> None:
    """Write the eval set with a readable id (the builder makes a UUID)."""
    eval_set = builder.build()
    eval_set.eval_set_id = set_id
    eval_set.to_file(folder / f"{set_id}.evalset.json")


def write_workspace(
    root: Path, *, agent: str = "weather_bot:agent", agent_code: str = AGENT
) -> Path:
    """A project: pyproject with [tool.tenxeval], weather_bot.py, two eval sets (5 cases)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        f'[tool.tenxeval]\nagent = "{agent}"\noutput_dir = "reports"\nconcurrency = 2\n',
        encoding="utf-8",
    )
    (root / "weather_bot.py").write_text(agent_code, encoding="utf-8")
    evals = root / "evals"
    evals.mkdir(exist_ok=True)
    cities = EvalSetBuilder("cities")
    weather_case(cities, "Paris")
    weather_case(cities, "Rome")
    weather_case(cities, "Oslo", expect="Bergen")  # fails: wrong expectation
    save(cities, "cities", evals)
    more = EvalSetBuilder("more")
    weather_case(more, "Lima")
    more.add_case("boom in Kyiv?", "never", case_id="kyiv")  # errors: the agent raises
    save(more, "more", evals)
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A project folder with the deterministic agent and two eval sets."""
    return write_workspace(tmp_path / "project")


def run_screen_ready(screen: Screen[Any]) -> bool:
    """Whether ``screen`` is the run screen with every field of its options bar mounted.

    A composed field is not yet a set one: a ``Select`` takes its value when it is mounted
    (until then it reads as blank, and a value given to it is overwritten by its own).
    """
    from tenxeval_tui.screens.run.run import RunScreen
    from tenxeval_tui.widgets.run.run_options import RunOptions

    if not isinstance(screen, RunScreen) or not screen.is_mounted:
        return False
    bars = screen.query(RunOptions)
    # The bar counts as mounted once its children are (a parent's Mount comes after theirs).
    return bool(bars) and bars.first().is_mounted


async def open_run_screen(pilot: Pilot[Any]) -> Any:
    """Press ``r`` as a user does and wait until the run screen is up with its options bar
    (on a loaded machine the screen may still be composing when the key returns)."""
    await pilot.press("r")
    await wait_for(
        pilot,
        lambda: run_screen_ready(pilot.app.screen),
        what="the run screen with its options bar",
    )
    return pilot.app.screen
