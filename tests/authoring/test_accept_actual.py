"""Accepting the actual through the document model: the file changes only where the
chosen expectations do, one undo step reverts it, and the case then passes on a rerun."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tenxeval_tui.authoring.accept_actual import apply_accept, changed_since_run, plan_accept
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, EvalSet, Trace, create_eval_app
from tenxeval_tui.evaluation.actual import NotAcceptable
from tests.evaluation.conftest import config_with

EVAL_SET = """{
  "eval_set_id": "weather",
  "eval_cases": [
    {"eval_id": "rome", "conversation": [{"user_content": {"role": "user", "content": "Rome?"},
      "expected_final_response": {"role": "assistant", "content": "Sunny in Rome."}}],
     "x_note": "kept as written"},
    {"eval_id": "oslo", "conversation": [{"user_content": {"role": "user", "content": "Oslo?"},
      "expected_final_response": {"role": "assistant", "content": "Snow in Oslo."},
      "expected_tool_trajectory": [{"name": "forecast", "args": {"city": "Oslo"}}]}]}
  ]
}
"""
CRITERIA = {"exact_match": {"threshold": 1.0}, "trajectory": {"threshold": 1.0}}


async def weather_agent(message: str, trace: Trace) -> str:
    """Rome is right; Oslo calls the tool with other arguments and says something else."""
    trace.node("agent")
    if message == "Oslo?":
        trace.record_tool("forecast", {"city": "Oslo", "days": 2}, "snow")
        return "Heavy snow in Oslo today."
    return "Sunny in Rome."


async def run(path: Path) -> EvalReport:
    app, collector = create_eval_app(weather_agent)
    evaluator = AgentEvaluator(app, collector, config_with(CRITERIA))
    return await evaluator.evaluate(EvalSet.from_file(path))


@pytest.fixture
def eval_set(tmp_path: Path) -> Path:
    path = tmp_path / "weather.evalset.json"
    path.write_text(EVAL_SET, encoding="utf-8")
    return path


async def test_accepting_writes_the_run_and_the_case_passes_on_rerun(eval_set: Path) -> None:
    report = await run(eval_set)
    oslo = report.get_case_result("oslo")
    assert oslo is not None and not oslo.passed
    document = EvalSetDocument.load(eval_set)
    plan = plan_accept(document, oslo)
    assert plan.changes and plan.parts == ("response", "tools", "nodes")
    diff = plan.diff()
    assert '-        "content": "Snow in Oslo."' in diff
    assert '+        "content": "Heavy snow in Oslo today."' in diff
    assert apply_accept(document, plan) == []
    text = eval_set.read_text(encoding="utf-8")
    # the untouched case keeps its bytes, unknown key and layout included
    rome = EVAL_SET[
        EVAL_SET.index('    {"eval_id": "rome"') : EVAL_SET.index('    {"eval_id": "oslo"')
    ]
    assert rome in text
    turn = json.loads(text)["eval_cases"][1]["conversation"][0]
    assert turn["expected_final_response"]["content"] == "Heavy snow in Oslo today."
    assert turn["expected_tool_trajectory"] == [
        {"name": "forecast", "args": {"city": "Oslo", "days": 2}}
    ]
    assert turn["expected_node_order"] == ["agent"]
    rerun = await run(eval_set)
    assert rerun.summary.passed_cases == 2

    assert document.undo() is not None  # one step reverts the whole accept
    assert document.save() == []
    assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)


async def test_only_the_chosen_parts_change(eval_set: Path) -> None:
    report = await run(eval_set)
    oslo = report.get_case_result("oslo")
    assert oslo is not None
    document = EvalSetDocument.load(eval_set)
    plan = plan_accept(document, oslo, ["response"])
    turn = plan.after["conversation"][0]
    assert turn["expected_final_response"]["content"] == "Heavy snow in Oslo today."
    assert turn["expected_tool_trajectory"] == [{"name": "forecast", "args": {"city": "Oslo"}}]
    assert "expected_node_order" not in turn
    rome = report.get_case_result("rome")
    assert rome is not None
    assert not plan_accept(document, rome, ["response"]).changes  # already expected


async def test_refusals_say_why(eval_set: Path) -> None:
    report = await run(eval_set)
    oslo = report.get_case_result("oslo")
    assert oslo is not None
    document = EvalSetDocument.load(eval_set)
    gone = oslo.model_copy(update={"eval_id": "madrid"})
    with pytest.raises(NotAcceptable, match=r"no case 'madrid' in weather\.evalset\.json"):
        plan_accept(document, gone)
    errored = oslo.model_copy(update={"error": "TimeoutError", "passed": False})
    with pytest.raises(NotAcceptable, match="the run errored"):
        plan_accept(document, errored)
    past = time.time() - 60
    os.utime(eval_set, (past, past))
    assert not changed_since_run(eval_set, report.timestamp)
    eval_set.write_text(EVAL_SET, encoding="utf-8")  # edited after the run
    assert changed_since_run(eval_set, report.timestamp)
