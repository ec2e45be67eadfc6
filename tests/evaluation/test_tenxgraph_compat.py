"""Files written by 10xGraph load here unchanged, and ours load in 10xGraph."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import tenxgraph.qa.evaluation as tx

from tenxeval_tui.evaluation import (
    CriterionConfig,
    CriterionConfigError,
    EvalConfig,
    EvalFileError,
    EvalPresets,
    EvalReport,
    EvalSet,
    EvalSetBuilder,
    ToolCall,
    build_criteria,
)
from tenxeval_tui.evaluation.config.eval_config import CRITERION_NAMES


def test_an_eval_set_written_by_10xgraph_loads_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "theirs.evalset.json"
    theirs = (
        tx.EvalSetBuilder("weather")
        .add_case(
            query="Weather in Tokyo?",
            expected="Raining in Tokyo.",
            expected_tools=[tx.ToolCall(name="get_weather", args={"location": "Tokyo"})],
            case_id="tokyo",
        )
        .add_multi_turn(
            conversation=[("Hello", "Hi!"), ("Paris?", "18C")],
            expected_tools=["get_weather"],
            case_id="multi",
        )
        .build()
    )
    theirs.to_file(str(path))
    ours = EvalSet.from_file(path)
    assert ours.eval_set_id == theirs.eval_set_id
    tokyo = ours.get_case("tokyo")
    assert tokyo is not None
    assert tokyo.conversation[0].expected_tool_trajectory == [
        ToolCall(name="get_weather", args={"location": "Tokyo"})
    ]
    # Saving it again changes nothing a 10xGraph user wrote.
    out = tmp_path / "again.evalset.json"
    ours.to_file(out)
    assert json.loads(out.read_text()) == json.loads(path.read_text())


def test_our_eval_set_loads_in_10xgraph(tmp_path: Path) -> None:
    path = tmp_path / "ours.evalset.json"
    ours = (
        EvalSetBuilder("ours")
        .add_case("Weather in Oslo?", "Cold.", expected_tools=["get_weather"], tags=["smoke"])
        .add_multi_turn([("a", "b"), ("c", "d")], case_id="mt")
        .save(path)
    )
    theirs = tx.EvalSet.from_file(str(path))
    assert [c.eval_id for c in theirs.eval_cases] == [c.eval_id for c in ours.eval_cases]
    assert theirs.eval_cases[0].tags == ["smoke"]


def test_a_10xgraph_config_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    tx.EvalConfig.strict().to_file(str(path))
    config = EvalConfig.from_file(path)
    assert config.criteria.trajectory is not None
    assert config.criteria.trajectory.check_args is True
    assert config.criteria.response_match is not None
    assert config.criteria.response_match.threshold == 0.9


def test_a_10xgraph_report_loads(tmp_path: Path) -> None:
    result = tx.EvalCaseResult(
        eval_id="c1",
        name="Case 1",
        passed=False,
        criterion_results=[
            tx.CriterionResult(criterion="rouge_match", score=0.4, passed=False, threshold=0.5)
        ],
        actual_response="It rains.",
        actual_tool_calls=[tx.ToolCall(name="get_weather", args={"city": "Oslo"})],
    )
    report = tx.EvalReport.create(eval_set_id="theirs", results=[result], eval_set_name="T")
    path = tmp_path / "theirs.json"
    report.to_file(str(path))
    ours = EvalReport.from_file(path)
    assert ours.summary.failed_cases == 1
    assert ours.results[0].criterion_results[0].score == 0.4
    assert ours.results[0].actual_tool_calls[0].args == {"city": "Oslo"}


@pytest.mark.parametrize(
    "make",
    [
        EvalPresets.tool_usage,
        EvalPresets.quick_check,
        EvalPresets.conversation_flow,
        EvalConfig.default,
        EvalConfig.strict,
        EvalConfig.relaxed,
        lambda: EvalPresets.response_quality(judge_model="gpt-4o-mini"),
        lambda: EvalPresets.comprehensive(judge_model="gpt-4o-mini"),
    ],
)
def test_our_config_file_loads_in_10xgraph(tmp_path: Path, make: Callable[[], EvalConfig]) -> None:
    ours = make()
    path = tmp_path / "config.json"
    ours.to_file(path)
    theirs = tx.EvalConfig.from_file(str(path))
    for field, name in CRITERION_NAMES.items():
        mine = getattr(ours.criteria, field)
        if field == "exact_match" or mine is None:
            assert mine is None or field not in type(theirs.criteria).model_fields
            continue
        other = getattr(theirs.criteria, field)
        assert other is not None, name
        assert (other.threshold, other.match_type.value, other.check_args) == (
            mine.threshold,
            mine.match_type.value,
            mine.check_args,
        )
        if mine.judge_model is not None:
            assert other.judge_model == mine.judge_model
    # and it loads back here unchanged
    assert EvalConfig.from_file(path) == ours


def test_eval_config_defaults_are_those_of_the_installed_10xgraph() -> None:
    """`EvalConfig()` runs cases one at a time, as 0.10.3's does: an agent that is not safe
    to run concurrently never runs so after switching (see docs/how-to/from-10xgraph.md)."""
    ours, theirs = EvalConfig(), tx.EvalConfig()
    for field in ("parallel", "max_concurrency", "timeout", "verbose"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert ours.parallel is False and ours.effective_concurrency == 1
    assert EvalConfig.default().parallel is tx.EvalConfig.default().parallel


def test_strict_and_conversation_flow_take_10xgraphs_judge_settings() -> None:
    strict = EvalConfig.strict().criteria.llm_judge
    assert strict is not None and (strict.threshold, strict.num_samples) == (0.9, 5)
    flow = EvalPresets.conversation_flow(threshold=0.7, judge_model="gpt-4o-mini")
    assert flow.criteria.response_match is not None
    assert flow.criteria.response_match.judge_model == "gpt-4o-mini"


def test_unknown_criterion_names_are_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    config = EvalConfig.default()
    with pytest.raises(ValueError, match="unknown criterion 'tool_trajectory_score'"):
        config.enable_criterion("tool_trajectory_score")
    path = tmp_path / "config.json"
    path.write_text('{"criteria": {"rouge_match": {"threshold": 0.5}, "no_such": null}}')
    with pytest.raises(EvalFileError, match="no_such"):
        EvalConfig.from_file(path)
    # 10xGraph's simulation_goals slot loads, unset or under its legacy name; enabled, it
    # builds the judged SimulationGoalsCriterion (which needs a judge set up).
    path.write_text('{"criteria": {"simulation_goals": null}}')
    assert EvalConfig.from_file(path).criteria.simulation_goals is None
    path.write_text('{"criteria": {"conversation_goals": {"threshold": 0.7}}}')
    legacy = EvalConfig.from_file(path).criteria.simulation_goals
    assert legacy is not None and legacy.threshold == 0.7
    enabled = EvalConfig()
    enabled.enable_criterion("simulation_goals", CriterionConfig(judge_model="m"))
    with pytest.raises(CriterionConfigError, match="simulation_goals: no API key"):
        build_criteria(enabled)
