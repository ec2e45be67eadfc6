"""The shipped JSON Schemas: in step with the models, and agreeing with the loaders.

A schema that marked a loadable file wrong (or let a broken one pass) would teach an
editor's user the wrong format, so each kind is checked on files the loader takes and
files it refuses, the sample files included.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from tenxeval_tui.evaluation import EvalConfig, EvalSet
from tenxeval_tui.evaluation.config.presets import EvalPresets
from tenxeval_tui.evaluation.schemas import SCHEMA_FILES, shipped_schema_text
from tenxeval_tui.evaluation.schemas.generate import SCHEMA_KINDS, schema_text
from tenxeval_tui.evaluation.schemas.label_line import LabelLine
from tenxeval_tui.evaluation.simulators.scenario import ScenarioSet

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_evals"


def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(shipped_schema_text(kind)))


def schema_accepts(kind: str, document: Any) -> bool:
    return validator(kind).is_valid(document)


@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_the_shipped_schema_is_the_one_the_models_make_now(kind: str) -> None:
    assert shipped_schema_text(kind) == schema_text(kind), (
        f"{kind}.schema.json is stale: run `python -m tenxeval_tui.evaluation.schemas` "
        "(make schemas) and commit the result"
    )


def test_every_kind_has_a_model_and_a_shipped_file() -> None:
    assert set(SCHEMA_KINDS) == set(SCHEMA_FILES)


@pytest.mark.parametrize("kind", list(SCHEMA_FILES))
def test_each_schema_is_a_valid_draft_2020_12_schema(kind: str) -> None:
    Draft202012Validator.check_schema(json.loads(shipped_schema_text(kind)))


@pytest.mark.parametrize(
    ("kind", "pattern"), [("evalset", "*.evalset.json"), ("scenarios", "*.scenarios.json")]
)
def test_every_sample_file_validates(kind: str, pattern: str) -> None:
    files = sorted(SAMPLES.glob(pattern))
    assert files
    for file in files:
        errors = [e.message for e in validator(kind).iter_errors(json.loads(file.read_text()))]
        assert errors == [], file


def test_every_preset_config_written_by_to_file_validates(tmp_path: Path) -> None:
    configs = {
        "default": EvalConfig.default(),
        "strict": EvalConfig.strict(),
        "relaxed": EvalConfig.relaxed(),
        "comprehensive": EvalPresets.comprehensive(),
        "safety": EvalPresets.safety_check(),
    }
    for name, config in configs.items():
        config.to_file(tmp_path / f"{name}.json")
        document = json.loads((tmp_path / f"{name}.json").read_text())
        assert schema_accepts("config", document), name


# (document, whether the loader takes it): the schema must give the same answer.
_CASE = {"eval_id": "c1", "conversation": [{"user_content": {"role": "user", "content": "Hi"}}]}


def _eval_set(**case: Any) -> dict[str, Any]:
    return {"eval_set_id": "s", "eval_cases": [{**copy.deepcopy(_CASE), **case}]}


def _turn(**turn: Any) -> dict[str, Any]:
    return _eval_set(conversation=[turn])


EVAL_SETS: list[tuple[str, Any, bool]] = [
    ("minimal", {"eval_cases": []}, True),
    ("a case", _eval_set(), True),
    ("an unknown key, kept", {**_eval_set(), "owner": "me"}, True),
    ("$schema", {"$schema": "./evalset.schema.json", **_eval_set()}, True),
    ("bare string messages", _turn(user_content="Hi", expected_final_response="Hello"), True),
    ("ADK parts", _turn(user_content={"role": "user", "parts": [{"text": "Hi"}]}), True),
    ("ADK parts, no role", _turn(user_content={"parts": [{"text": "Hi"}]}), True),
    ("ADK final_response", _turn(user_content="Hi", final_response={"parts": []}), True),
    ("ADK nulls", {**_eval_set(name=None, session_input=None), "description": None}, True),
    ("tool with args", _turn(user_content="Hi", expected_tool_trajectory=[{"name": "t"}]), True),
    ("metadata.agent", {**_eval_set(), "metadata": {"agent": "m:a"}}, True),
    ("a number as message", _turn(user_content=5), False),
    ("a message without content", _turn(user_content={"role": "user"}), False),
    ("a message without role", _turn(user_content={"content": "Hi"}), False),
    ("a tool call without name", _turn(user_content="Hi", expected_tool_trajectory=[{}]), False),
    ("tags not a list", _eval_set(tags="smoke"), False),
    ("eval_cases not a list", {"eval_cases": {}}, False),
    ("a null eval_id", _eval_set(eval_id=None), False),
    ("a turn without user_content", _eval_set(conversation=[{}]), False),
]


def _eval_set_loads(document: Any) -> bool:
    try:
        EvalSet.from_data(document)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("name", "document", "loads"), EVAL_SETS, ids=[e[0] for e in EVAL_SETS])
def test_the_eval_set_schema_accepts_what_the_loader_loads(
    name: str, document: Any, loads: bool
) -> None:
    assert _eval_set_loads(document) is loads, "the table is wrong about the loader"
    assert schema_accepts("evalset", document) is loads


def test_the_schema_is_stricter_than_loading_only_where_a_run_refuses() -> None:
    """``metadata.repeats`` is checked when a run starts, not on load: the editor says it
    at once."""
    document = {"eval_set_id": "s", "metadata": {"repeats": 0}, "eval_cases": []}
    assert _eval_set_loads(document)
    assert not schema_accepts("evalset", document)
    document["metadata"]["repeats"] = 5
    assert schema_accepts("evalset", document)


_SCENARIO = {"scenario_id": "trip", "goals": ["Learn the weather"], "max_turns": 3}
SCENARIO_SETS: list[tuple[str, Any, bool]] = [
    ("a scenario", {"scenarios": [_SCENARIO]}, True),
    ("$schema", {"$schema": "x.json", "scenarios": [_SCENARIO]}, True),
    ("a typo", {"scenarios": [{**_SCENARIO, "goal": "x"}]}, False),
    ("an unknown top key", {"scenario": [], "scenarios": []}, False),
    ("no scenario_id", {"scenarios": [{"goals": []}]}, False),
    ("a blank scenario_id", {"scenarios": [{"scenario_id": "  "}]}, False),
    ("negative max_turns", {"scenarios": [{**_SCENARIO, "max_turns": -1}]}, False),
    ("simulator config", {"user_simulator_config": {"model": "m"}, "scenarios": []}, True),
]


def _scenarios_load(document: Any) -> bool:
    try:
        ScenarioSet.model_validate(document)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(
    ("name", "document", "loads"), SCENARIO_SETS, ids=[e[0] for e in SCENARIO_SETS]
)
def test_the_scenario_schema_accepts_what_the_loader_loads(
    name: str, document: Any, loads: bool
) -> None:
    assert _scenarios_load(document) is loads, "the table is wrong about the loader"
    assert schema_accepts("scenarios", document) is loads


CONFIGS: list[tuple[str, Any, bool]] = [
    ("criteria by field", {"criteria": {"trajectory": {"threshold": 1.0}}}, True),
    ("criteria by name", {"criteria": {"tool_trajectory_avg_score": {"threshold": 1}}}, True),
    ("10xGraph spelling", {"criteria": {"tool_trajectory": {"match_type": "IN_ORDER"}}}, True),
    ("match type any case", {"criteria": {"trajectory": {"match_type": "in-order"}}}, True),
    ("a bad match type", {"criteria": {"trajectory": {"match_type": "sometimes"}}}, False),
    ("a user's criterion", {"criteria": {"short_reply": {"threshold": 1.0}}}, True),
    ("a user's criterion null", {"criteria": {"short_reply": None}}, False),
    ("a built-in off", {"criteria": {"rouge_match": None}}, True),
    ("threshold a word", {"criteria": {"rouge_match": {"threshold": "high"}}}, False),
    ("pass rule", {"repeats": 5, "pass_rule": 0.8}, True),
    ("pass rule above 1", {"pass_rule": 1.5}, False),
    ("a bad price", {"prices": {"m": {"input": -1, "output": 1}}}, False),
    ("$schema", {"$schema": "config.schema.json", "max_concurrency": 2}, True),
    ("zero concurrency", {"max_concurrency": 0}, False),
]


def _config_loads(document: Any) -> bool:
    try:
        EvalConfig.model_validate(document)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("name", "document", "loads"), CONFIGS, ids=[e[0] for e in CONFIGS])
def test_the_config_schema_accepts_what_the_loader_loads(
    name: str, document: Any, loads: bool
) -> None:
    assert _config_loads(document) is loads, "the table is wrong about the loader"
    assert schema_accepts("config", document) is loads


def test_a_labels_line_as_issue_32_defines_it_validates_and_a_broken_one_does_not() -> None:
    line = {
        "eval_id": "refund",
        "criterion": None,
        "label": "pass",
        "reviewer": "ada",
        "report": "support_20261204_101500.json",
        "reply_sha256": "a" * 64,
        "note": "",
        "time": "2026-12-04T10:20:00+00:00",
    }
    LabelLine.model_validate(line)
    assert schema_accepts("labels", line)
    assert not schema_accepts("labels", {**line, "label": "maybe"})
    assert not schema_accepts("labels", {**line, "reply_sha256": "not hex"})
    assert not schema_accepts("labels", {k: v for k, v in line.items() if k != "eval_id"})
