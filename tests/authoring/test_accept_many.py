"""Accepting the replies of several cases at once: which cases the rule picks, one undo
step for all of them, the other cases' bytes kept, and the cases then pass on a rerun."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.authoring.accept_many import (
    apply_accept_many,
    only_reply_failed,
    plan_accept_many,
)
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, EvalSet, Trace, create_eval_app
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tests.evaluation.conftest import config_with

EVAL_SET = """{
  "eval_set_id": "cities",
  "eval_cases": [
    {"eval_id": "rome", "conversation": [{"user_content": {"role": "user", "content": "Rome?"},
      "expected_final_response": {"role": "assistant", "content": "Sunny in Rome."},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Rome"}}]}],
     "x_note": "kept as written"},
    {"eval_id": "oslo", "conversation": [{"user_content": {"role": "user", "content": "Oslo?"},
      "expected_final_response": {"role": "assistant", "content": "Snow in Oslo."},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Oslo"}}]}]},
    {"eval_id": "kyiv", "conversation": [{"user_content": {"role": "user", "content": "Kyiv?"},
      "expected_final_response": {"role": "assistant", "content": "Sun in Kyiv."},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Kyiv"}}]}]},
    {"eval_id": "lima", "conversation": [{"user_content": {"role": "user", "content": "Lima?"},
      "expected_final_response": {"role": "assistant", "content": "Sun in Lima."},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Lima"}}]}]}
  ]
}
"""
CRITERIA = {"exact_match": {"threshold": 1.0}, "tool_trajectory_avg_score": {"threshold": 1.0}}
REPLIES = {
    "Rome?": "Sunny in Rome.",
    "Oslo?": "Heavy snow in Oslo today.",
    "Kyiv?": "Rain in Kyiv.",
    "Lima?": "Fog in Lima.",
}


async def city_agent(message: str, trace: Trace) -> str:
    """Rome is right; Oslo and Lima say something else; Kyiv also calls another tool."""
    trace.node("agent")
    city = message.rstrip("?")
    trace.record_tool("radar" if city == "Kyiv" else "forecast", {"city": city}, "data")
    return REPLIES[message]


async def run(path: Path) -> EvalReport:
    app, collector = create_eval_app(city_agent)
    evaluator = AgentEvaluator(app, collector, config_with(CRITERIA))
    return await evaluator.evaluate(EvalSet.from_file(path))


@pytest.fixture
def eval_set(tmp_path: Path) -> Path:
    path = tmp_path / "cities.evalset.json"
    path.write_text(EVAL_SET, encoding="utf-8")
    return path


def replies(path: Path) -> dict[str, str]:
    cases = json.loads(path.read_text(encoding="utf-8"))["eval_cases"]
    return {c["eval_id"]: c["conversation"][0]["expected_final_response"]["content"] for c in cases}


async def test_the_rule_picks_the_cases_that_failed_on_their_reply_alone(eval_set: Path) -> None:
    report = await run(eval_set)
    failed = {r.eval_id for r in report.results if not r.passed}
    assert failed == {"oslo", "kyiv", "lima"}
    assert [r.eval_id for r in report.results if only_reply_failed(r)] == ["oslo", "lima"]


def test_an_errored_case_or_one_with_no_failing_criterion_is_not_picked() -> None:
    assert not only_reply_failed(EvalCaseResult(eval_id="x", passed=False, error="boom"))
    assert not only_reply_failed(EvalCaseResult(eval_id="x", passed=False))


async def test_one_undo_step_takes_every_accepted_reply_back(eval_set: Path) -> None:
    report = await run(eval_set)
    picked = [r for r in report.results if only_reply_failed(r)]
    document = EvalSetDocument.load(eval_set)
    plan = plan_accept_many(document, picked)
    assert [p.eval_id for p in plan.plans] == ["oslo", "lima"] and plan.skipped == []
    assert plan.summary().splitlines() == [
        "oslo: 'Snow in Oslo.' -> 'Heavy snow in Oslo today.'",
        "lima: 'Sun in Lima.' -> 'Fog in Lima.'",
    ]
    assert apply_accept_many(document, plan) == []
    text = eval_set.read_text(encoding="utf-8")
    for kept in ("rome", "kyiv"):  # untouched cases keep their bytes
        start = EVAL_SET.index(f'    {{"eval_id": "{kept}"')
        assert EVAL_SET[start : EVAL_SET.index("]}", start)] in text
    assert replies(eval_set) == {
        "rome": "Sunny in Rome.",
        "oslo": "Heavy snow in Oslo today.",
        "kyiv": "Sun in Kyiv.",
        "lima": "Fog in Lima.",
    }
    oslo = json.loads(text)["eval_cases"][1]["conversation"][0]
    assert oslo["expected_tool_trajectory"] == [{"name": "forecast", "args": {"city": "Oslo"}}]
    assert "expected_node_order" not in oslo  # the reply only

    rerun = await run(eval_set)
    assert {r.eval_id for r in rerun.results if not r.passed} == {"kyiv"}

    assert document.undo() is not None  # one step: both cases back
    assert document.save() == []
    assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
    assert not document.can_undo


async def test_a_case_not_in_the_file_or_already_expected_is_left_out(eval_set: Path) -> None:
    report = await run(eval_set)
    oslo = report.get_case_result("oslo")
    rome = report.get_case_result("rome")
    assert oslo is not None and rome is not None
    ghost = oslo.model_copy(update={"eval_id": "ghost"})
    document = EvalSetDocument.load(eval_set)
    plan = plan_accept_many(document, [oslo, oslo, ghost, rome])
    assert [p.eval_id for p in plan.plans] == ["oslo"]
    reasons = dict(plan.skipped)
    assert "listed twice" in reasons["oslo"]
    assert "no case 'ghost'" in reasons["ghost"]
    assert "already expects" in reasons["rome"]
    assert "ghost: left out, no case 'ghost'" in plan.summary()
