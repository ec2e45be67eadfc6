"""Helpers of the TUI tests: eval set files on disk and an app driven by Pilot."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall


@pytest.fixture
def weather_set(tmp_path: Path) -> Path:
    """A folder with one two-case eval set, written the way EvalSetBuilder writes it."""
    path = tmp_path / "weather.evalset.json"
    (
        EvalSetBuilder("weather")
        .add_case(
            "Weather in London?",
            "Sunny in London.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London"})],
            case_id="london",
            tags=["smoke"],
        )
        .add_multi_turn([("Hi", "Hello!"), ("Paris?", "18C in Paris.")], case_id="paris")
        .save(path)
    )
    return path


async def wait_for(pilot: Pilot[None], predicate: Callable[[], bool], timeout: float = 8.0) -> None:
    """Let the app run until ``predicate()`` holds (file watching is asynchronous)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.05)
