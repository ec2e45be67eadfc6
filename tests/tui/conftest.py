"""Helpers of the TUI tests: eval set files on disk and an app driven by Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest

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
