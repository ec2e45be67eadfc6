"""EvalConfig, CriterionConfig, ReporterConfig and the presets."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    CriteriaConfig,
    CriterionConfig,
    EvalConfig,
    EvalFileError,
    EvalPresets,
    MatchType,
    ReporterConfig,
    Rubric,
)
from tenxeval_tui.evaluation.config.presets import PRESETS, preset_by_name


def enabled_names(config: EvalConfig) -> list[str]:
    return [name for name, _ in config.criteria.enabled_items()]


def test_default_is_exact_trajectory_and_response_match() -> None:
    config = EvalConfig.default()
    assert enabled_names(config) == ["tool_trajectory_avg_score", "response_match_score"]
    trajectory = config.get_criterion_config("tool_trajectory_avg_score")
    assert trajectory is not None
    assert (trajectory.threshold, trajectory.match_type, trajectory.check_args) == (
        1.0,
        MatchType.EXACT,
        False,
    )
    response = config.get_criterion_config("response_match")
    assert response is not None and response.threshold == 0.8


def test_trajectory_with_check_args() -> None:
    cfg = CriterionConfig.trajectory(check_args=True)
    assert cfg.check_args is True and cfg.threshold == 1.0


def test_match_type_accepts_any_spelling() -> None:
    assert MatchType("in_order") is MatchType.IN_ORDER
    assert MatchType("Any-Order") is MatchType.ANY_ORDER
    with pytest.raises(ValueError):
        MatchType("sideways")


def test_criteria_may_be_keyed_by_criterion_names() -> None:
    config = EvalConfig(
        criteria={  # type: ignore[arg-type]
            "tool_name_match_score": CriterionConfig(threshold=1.0),
            "hallucinations_v1": {"threshold": 0.7},
            "my_metric": {"threshold": 0.5},
        }
    )
    assert config.criteria.tool_name_match is not None
    assert config.criteria.hallucination is not None
    assert config.criteria.hallucination.threshold == 0.7
    assert config.criteria.custom["my_metric"].threshold == 0.5
    assert enabled_names(config) == ["tool_name_match_score", "hallucinations_v1", "my_metric"]


def test_enable_and_disable_criteria() -> None:
    config = EvalConfig(criteria=CriteriaConfig())
    config.enable_criterion("rouge_match", CriterionConfig.rouge_match(0.4))
    config.enable_criterion("trajectory")
    assert enabled_names(config) == ["tool_trajectory_avg_score", "rouge_match"]
    config.disable_criterion("tool_trajectory_avg_score")
    assert enabled_names(config) == ["rouge_match"]
    config.disable_criterion("safety")  # not configured: no effect, no error
    assert enabled_names(config) == ["rouge_match"]


def test_with_rubrics_returns_a_copy() -> None:
    base = EvalConfig.default()
    rubric = Rubric.create("concise", "The answer is one sentence.")
    with_rubrics = base.with_rubrics([rubric])
    assert base.criteria.rubric_based is None
    assert with_rubrics.criteria.rubric_based is not None
    assert with_rubrics.criteria.rubric_based.rubrics == [rubric]


def test_config_file_round_trip_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    config = EvalPresets.tool_usage(threshold=0.9, strict=False)
    config.max_concurrency = 8
    config.to_file(path)
    assert EvalConfig.from_file(path) == config
    path.write_text('{"max_concurrency": 0}', encoding="utf-8")
    with pytest.raises(EvalFileError) as info:
        EvalConfig.from_file(path)
    assert info.value.first.json_path == "max_concurrency"
    assert "greater than or equal to 1" in info.value.first.message


def test_a_config_error_names_the_criterion_as_the_file_does(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(
        '{"criteria": {\n  "tool_trajectory_avg_score": {"threshold": "high"}}}', encoding="utf-8"
    )
    with pytest.raises(EvalFileError) as info:
        EvalConfig.from_file(path)
    problem = info.value.first
    assert problem.json_path == "criteria.tool_trajectory_avg_score.threshold"
    assert (problem.line, problem.column) == (2, 46)  # at "high"


def test_reporter_config_defaults_are_the_documented_ones() -> None:
    assert ReporterConfig().model_dump() == {
        "enabled": True,
        "output_dir": "eval_reports",
        "console": True,
        "json_report": True,
        "html": True,
        "junit_xml": False,
        "verbose": True,
        "include_details": True,
        "include_trajectory": True,
        "include_node_responses": True,
        "include_actual_response": True,
        "include_tool_call_details": True,
        "timestamp_files": True,
        "csv": False,
        "jsonl": False,
    }


def test_presets() -> None:
    assert enabled_names(EvalPresets.tool_usage()) == [
        "tool_trajectory_avg_score",
        "tool_name_match_score",
    ]
    strict = EvalPresets.tool_usage()
    assert strict.criteria.trajectory is not None
    assert strict.criteria.trajectory.match_type is MatchType.EXACT
    assert strict.criteria.trajectory.check_args is True
    assert enabled_names(EvalPresets.quick_check()) == ["rouge_match"]
    assert enabled_names(EvalPresets.response_quality()) == [
        "response_match_score",
        "final_response_match_v2",
    ]
    assert enabled_names(EvalPresets.response_quality(use_llm_judge=False)) == [
        "response_match_score"
    ]
    assert set(enabled_names(EvalPresets.comprehensive())) >= {
        "tool_name_match_score",
        "hallucinations_v1",
        "factual_accuracy_v1",
        "safety_v1",
    }
    assert enabled_names(EvalPresets.safety_check()) == ["hallucinations_v1", "safety_v1"]


def test_combine_merges_criteria_later_wins() -> None:
    combined = EvalPresets.combine(EvalPresets.tool_usage(threshold=1.0), EvalPresets.quick_check())
    assert enabled_names(combined) == [
        "tool_trajectory_avg_score",
        "tool_name_match_score",
        "rouge_match",
    ]
    override = EvalPresets.combine(EvalConfig.default(), EvalConfig.relaxed())
    assert override.criteria.trajectory is not None
    assert override.criteria.trajectory.threshold == 0.8


def test_preset_by_name() -> None:
    assert preset_by_name("quick-check") == EvalPresets.quick_check()
    with pytest.raises(KeyError, match="choose one of"):
        preset_by_name("nope")
    for name in PRESETS:
        assert isinstance(preset_by_name(name), EvalConfig)


def test_effective_concurrency() -> None:
    assert EvalConfig(max_concurrency=8, parallel=True).effective_concurrency == 8
    assert EvalConfig(max_concurrency=8).effective_concurrency == 1
    assert EvalConfig(max_concurrency=8, parallel=False).effective_concurrency == 1
