"""Accepting the actual: a run's behaviour becomes the case's expectations, and then passes."""

from __future__ import annotations

import pytest

from sample_evals.plain_agent import support_agent
from tenxeval_tui.evaluation import AgentEvaluator, EvalSet, create_eval_app
from tenxeval_tui.evaluation.actual import NotAcceptable, actual_as_expected

from .conftest import config_with
from .test_rescore import CRITERIA, SAMPLE


def evaluator() -> AgentEvaluator:
    return AgentEvaluator(*create_eval_app(support_agent), config_with(CRITERIA))


async def test_an_accepted_run_passes_when_run_again() -> None:
    eval_set = EvalSet.from_file(SAMPLE)
    report = await evaluator().evaluate(eval_set)
    wrong = report.get_case_result("wrong_status")
    assert wrong is not None and wrong.status == "failed"
    chosen = ["wrong_status", "follow_up_refund"]
    accepted = [
        actual_as_expected(eval_set.get_case(eval_id), report.get_case_result(eval_id))
        for eval_id in chosen
    ]
    # a two-turn case gets each turn's own tool calls and replies
    refund = accepted[1]
    assert [[c.name for c in t.expected_tool_trajectory] for t in refund.conversation] == [
        ["lookup_order"],
        ["refund"],
    ]
    assert refund.conversation[1].expected_tool_trajectory[0].args == {
        "order_id": "A200",
        "reason": "customer request",
    }
    assert (
        refund.conversation[0].user_content
        == eval_set.get_case(chosen[1]).conversation[0].user_content
    )

    rerun = await evaluator().evaluate(EvalSet(eval_set_id="accepted", eval_cases=accepted))
    assert [r.status for r in rerun.results] == ["passed", "passed"]


async def test_only_the_chosen_parts_change() -> None:
    eval_set = EvalSet.from_file(SAMPLE)
    report = await evaluator().evaluate(eval_set)
    case = eval_set.get_case("wrong_status")
    result = report.get_case_result("wrong_status")
    accepted = actual_as_expected(case, result, ["response"])
    assert (
        accepted.conversation[0].expected_tool_trajectory
        == case.conversation[0].expected_tool_trajectory
    )
    assert accepted.conversation[0].expected_node_order == case.conversation[0].expected_node_order
    assert accepted.conversation[0].expected_final_response.get_text() == result.actual_response
    assert case.conversation[0].expected_final_response.get_text() != result.actual_response
    names_only = actual_as_expected(case, result, ["tools"], with_args=False)
    assert [c.args for c in names_only.conversation[0].expected_tool_trajectory] == [{}]


async def test_the_accepted_reply_keeps_its_metadata() -> None:
    eval_set = EvalSet.from_file(SAMPLE)
    report = await evaluator().evaluate(eval_set)
    case = eval_set.get_case("wrong_status")
    assert case is not None and case.conversation[0].expected_final_response is not None
    case.conversation[0].expected_final_response.metadata = {"note": "keep me"}
    accepted = actual_as_expected(case, report.get_case_result("wrong_status"), ["response"])
    reply = accepted.conversation[0].expected_final_response
    assert reply is not None and reply.metadata == {"note": "keep me"}
    assert reply.get_text() == "Order A100 is shipped, expected Friday."


async def test_an_errored_run_or_a_wrong_case_is_refused() -> None:
    eval_set = EvalSet.from_file(SAMPLE)
    report = await evaluator().evaluate(eval_set)
    outage = report.get_case_result("service_outage")
    with pytest.raises(NotAcceptable, match="errored"):
        actual_as_expected(eval_set.get_case("service_outage"), outage)
    with pytest.raises(NotAcceptable, match="not 'greeting'"):
        actual_as_expected(eval_set.get_case("greeting"), report.get_case_result("off_topic"))
    with pytest.raises(ValueError, match="unknown parts"):
        actual_as_expected(eval_set.get_case("greeting"), report.get_case_result("greeting"), ["x"])


async def test_accepting_keeps_the_matchers_the_run_still_fits() -> None:
    from tenxeval_tui.evaluation import EvalCase, ToolCall

    case = EvalCase.single_turn(
        "refund",
        "I want a refund for order A100",
        expected_tools=[
            ToolCall(name="lookup_order", args={"order_id": {"$regex": "^A"}}),
            ToolCall(name="refund", args={"order_id": {"$regex": "^B"}, "reason": {"$any": True}}),
        ],
    )
    report = await evaluator().evaluate(EvalSet(eval_set_id="m", eval_cases=[case]))
    (result,) = report.results
    accepted = actual_as_expected(case, result, ["tools"])
    # The agent made one call, a refund of A100: the ^B matcher no longer holds, so the
    # run's call replaces it; the lookup it did not make goes.
    assert accepted.conversation[0].expected_tool_trajectory == [
        ToolCall(name="refund", args={"order_id": "A100", "reason": "customer request"})
    ]
    loose = case.model_copy(deep=True)
    loose.conversation[0].expected_tool_trajectory[1].args["order_id"] = {"$regex": "^A1"}
    kept = actual_as_expected(loose, result, ["tools"])
    assert kept.conversation[0].expected_tool_trajectory == [
        ToolCall(name="refund", args={"order_id": {"$regex": "^A1"}, "reason": {"$any": True}})
    ]
    names_only = actual_as_expected(loose, result, ["tools"], with_args=False)
    assert names_only.conversation[0].expected_tool_trajectory == [ToolCall(name="refund")]
