"""Scenario files (``NAME.scenarios.json``): loaded like eval sets, every problem placed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    ConversationScenario,
    EvalFileError,
    ScenarioSet,
    UserSimulatorConfig,
    validate_scenario_file,
)

ROOT = Path(__file__).resolve().parents[3]


def test_the_sample_scenario_file_loads() -> None:
    loaded = ScenarioSet.from_file(ROOT / "sample_evals" / "weather_graph.scenarios.json")
    assert loaded.scenario_set_id == "weather_graph_scenarios"
    assert [s.scenario_id for s in loaded.scenarios] == ["weekend_trip", "off_topic"]
    assert loaded.metadata["agent"] == "sample_evals.weather_graph:build_graph"
    assert loaded.user_simulator_config == UserSimulatorConfig(
        model="gpt-4o-mini", max_invocations=6, api_style="responses"
    )
    assert loaded.get_scenario("off_topic") is not None
    assert loaded.get_scenario("off_topic").max_turns == 3  # type: ignore[union-attr]


def test_a_file_round_trips_and_takes_its_id_from_the_file_name(tmp_path: Path) -> None:
    scenario = ConversationScenario(scenario_id="a", goals=["g"], starting_prompt="hi")
    path = ScenarioSet(scenarios=[scenario]).save(tmp_path / "trips.scenarios.json")
    loaded = ScenarioSet.from_file(path)
    assert loaded.scenario_set_id == "trips"
    assert loaded.scenarios == [scenario]
    assert loaded.user_simulator_config is None


BAD = """{
  "scenarios": [
    {"scenario_id": "a", "goals": ["x"]},
    {"scenario_id": "a", "goal": ["y"], "max_turns": -1},
    {"description": "no id"},
    {"scenario_id": "b", "goals": "one goal"}
  ],
  "agent": "x:y"
}
"""


def test_every_problem_is_named_by_file_line_column_and_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.scenarios.json"
    path.write_text(BAD)
    problems = sorted(str(p) for p in validate_scenario_file(path))
    assert problems == sorted(
        [
            f"{path}:4:54: scenarios[1].max_turns: Input should be greater than or equal to 0",
            f"{path}:4:34: scenarios[1].goal: Extra inputs are not permitted",
            f"{path}:4:21: scenarios[1].scenario_id: duplicate scenario_id 'a' "
            "(also used by scenarios[0])",
            f"{path}:5:5: scenarios[2]: scenario_id must be set (it names the scenario's case)",
            f'{path}:6:35: scenarios[3].goals: Input should be a valid array (got "one goal")',
            f"{path}:8:12: agent: Extra inputs are not permitted",
        ]
    )
    with pytest.raises(EvalFileError) as info:
        ScenarioSet.from_file(path)
    assert len(info.value.problems) == 6


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"scenarios": [', "bad.scenarios.json:1:16:"),
        ("[]", "expected a JSON object for ScenarioSet"),
        ('{"scenarios": [{"scenario_id": ""}]}', "scenarios[0].scenario_id: scenario_id must"),
    ],
)
def test_broken_json_and_wrong_shapes_are_named(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.scenarios.json"
    path.write_text(text)
    (found,) = validate_scenario_file(path)
    assert problem in str(found)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    (found,) = validate_scenario_file(tmp_path / "none.scenarios.json")
    assert found.message == "file not found"
