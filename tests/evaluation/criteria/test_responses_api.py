"""Judges on the Responses API (``api_style="responses"``, 10xGraph's default) through the
real openai client against the loopback server's ``POST /v1/responses``."""

from __future__ import annotations

import pytest

from tenxeval_tui.evaluation import (
    CriterionConfig,
    CriterionConfigError,
    EvalConfig,
    LLMJudgeCriterion,
    build_criteria,
)
from tests.evaluation.criteria.judge_server import CHAT, RESPONSES, JudgeServer, Scripted, verdict
from tests.evaluation.criteria.test_judged import config, judge


async def test_a_judged_criterion_asks_through_the_responses_api(judge_env: JudgeServer) -> None:
    judge_env.script(*[Scripted(verdict("valid", "same facts").content, cached_tokens=3)] * 2)
    result = await judge(LLMJudgeCriterion(config(num_samples=2, api_style="responses")))
    assert (result.score, result.error, result.details["reason"]) == (1.0, None, "same facts")
    assert judge_env.routes() == [RESPONSES, RESPONSES]
    request = judge_env.requests[0]
    assert (request["model"], request["temperature"]) == ("judge-test", 0.0)
    assert "It is sunny in Paris, 22 degrees." in request["input"]  # the prompt is the input
    usage = result.token_usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (22, 14, 6)


async def test_chat_stays_the_criteria_default(judge_env: JudgeServer) -> None:
    judge_env.script(verdict("invalid"))
    result = await judge(LLMJudgeCriterion(config()))
    assert (result.score, judge_env.routes()) == (0.0, [CHAT])


async def test_a_responses_api_error_is_a_judge_error(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted(status=400, content="model does not support responses"))
    result = await judge(LLMJudgeCriterion(config(api_style="responses")))
    assert result.error is not None
    assert "HTTP 400" in result.error and "does not support responses" in result.error


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("<html>502</html>", "sent no Responses API response"),
        ('{"id": "resp_1", "object": "response", "output": []}', "answered: no output"),
        (
            '{"id": "r", "object": "response", "output": [], "error": '
            '{"code": "server_error", "message": "overloaded"}}',
            "answered: overloaded",
        ),
    ],
)
async def test_a_body_that_is_no_response_is_named(
    judge_env: JudgeServer, body: str, said: str
) -> None:
    judge_env.script(Scripted(raw_body=body))
    result = await judge(LLMJudgeCriterion(config(api_style="responses")))
    assert result.error is not None and said in result.error


async def test_garbage_text_from_the_responses_api_fails_with_a_quote(
    judge_env: JudgeServer,
) -> None:
    judge_env.script(Scripted("no idea, honestly"))
    result = await judge(LLMJudgeCriterion(config(api_style="responses")))
    assert result.error is not None
    assert "no JSON object" in result.error and "'no idea, honestly'" in result.error


def test_an_unknown_api_style_is_refused_naming_the_supported_ones(
    judge_env: JudgeServer,
) -> None:
    run = EvalConfig()
    run.enable_criterion("safety_v1", CriterionConfig(api_style="completions"))
    with pytest.raises(CriterionConfigError, match="supported: chat, responses"):
        build_criteria(run)
