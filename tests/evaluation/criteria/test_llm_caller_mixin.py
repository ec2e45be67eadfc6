"""LLMCallerMixin: a 10xGraph-style custom criterion asks our judge for a score."""

from __future__ import annotations

import json

import pytest

from tenxeval_tui.evaluation import (
    BaseCriterion,
    CriterionConfig,
    CriterionResult,
    EvalCase,
    ExecutionResult,
    JudgeError,
    LLMCallerMixin,
)
from tests.evaluation.criteria.judge_server import RESPONSES, JudgeServer, Scripted


class Politeness(LLMCallerMixin, BaseCriterion):
    """Written the way 10xGraph's docs show a custom LLM criterion."""

    name = "politeness"

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        score, reasoning, usage = await self._call_llm_score(
            f"Rate how polite this reply is: {actual.actual_response}"
        )
        return self.result(score, details={"reason": reasoning}, token_usage=usage)


REPLY = ExecutionResult(actual_response="Thank you kindly!")
CASE = EvalCase.single_turn("p", "Hi")


@pytest.mark.parametrize("api_style", ["chat", "responses"])
async def test_a_mixin_criterion_gets_the_judges_score(
    judge_env: JudgeServer, api_style: str
) -> None:
    judge_env.script(Scripted(json.dumps({"score": 0.75, "reasoning": "polite"})))
    config = CriterionConfig(threshold=0.5, judge_cache=False, api_style=api_style)
    result = await Politeness(config).evaluate(REPLY, CASE)
    assert (result.score, result.passed, result.details["reason"]) == (0.75, True, "polite")
    assert result.token_usage.input_tokens == 11
    assert (judge_env.routes()[0] == RESPONSES) == (api_style == "responses")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("very polite", "not a JSON object"),
        ('{"reasoning": "x"}', "no numeric 'score'"),
        ('{"score": 7}', "not between 0 and 1"),
    ],
)
async def test_a_bad_score_raises_instead_of_scoring(
    judge_env: JudgeServer, content: str, problem: str
) -> None:
    judge_env.script(Scripted(content))
    with pytest.raises(JudgeError, match=problem):
        await Politeness(CriterionConfig(judge_cache=False)).evaluate(REPLY, CASE)


async def test_no_judge_raises_instead_of_scoring_half(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(JudgeError, match="no judge model"):
        await Politeness().evaluate(REPLY, CASE)
