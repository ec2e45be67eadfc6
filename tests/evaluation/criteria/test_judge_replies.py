"""Judges that answer oddly: broken gateways, thinking aloud, nulls, restyled ids, bad caches.

Every test goes through the real openai client to a scripted server on 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    CompositeCriterion,
    CriterionConfig,
    EvalCase,
    ExecutionResult,
    FactualAccuracyCriterion,
    HallucinationCriterion,
    JudgeCache,
    JudgePool,
    LLMJudgeCriterion,
    Rubric,
    RubricBasedCriterion,
    SafetyCriterion,
    WeightedCriterion,
)
from tenxeval_tui.evaluation.criteria.llm_base import parse_json_reply
from tenxeval_tui.evaluation.criteria.response import RougeMatchCriterion
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, verdict
from tests.evaluation.criteria.test_judged import CASE, REPLY, config, judge
from tests.waiting import scaled

HTML_PAGE = "<html><body>502 Bad Gateway</body></html>"


async def test_a_page_that_is_no_completion_is_a_judge_error_and_kept_tokens_count(
    judge_env: JudgeServer,
) -> None:
    judge_env.script(
        verdict("valid"),
        verdict("valid"),
        Scripted(raw_body=HTML_PAGE, content_type="text/html"),
    )
    result = await judge(LLMJudgeCriterion(config(num_samples=3)))
    assert result.error is not None and "sent no chat completion" in result.error
    assert result.token_usage.total_tokens == 2 * 18  # the two answers that came


async def test_a_gateway_error_in_a_200_reply_is_quoted(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted(raw_body='{"error": {"message": "quota exceeded for key"}}'))
    result = await judge(LLMJudgeCriterion(config()))
    assert result.error is not None and "answered: quota exceeded for key" in result.error


@pytest.mark.parametrize(
    "reply",
    [
        '<think>The user asks about {city}; check it.</think>\n{"verdict": "valid"}',
        '```python\nprint({"a": 1})\n```\nSo:\n```json\n{"verdict": "valid"}\n```',
        'First {"draft": true}, then my answer: {"verdict": "valid", "reasoning": "ok"}',
    ],
)
def test_the_answer_is_the_last_json_object_of_the_reply(reply: str) -> None:
    assert parse_json_reply(reply)["verdict"] == "valid"


def test_objects_inside_the_answer_are_not_taken_for_it() -> None:
    reply = 'Answer: {"verdict": "valid", "detail": {"nested": 1}} done'
    assert parse_json_reply(reply) == {"verdict": "valid", "detail": {"nested": 1}}


async def test_null_in_optional_fields_reads_as_empty(judge_env: JudgeServer) -> None:
    judge_env.script(
        Scripted(json.dumps({"reasoning": None, "verdict": "valid"})),
        Scripted(json.dumps({"reasoning": "fine", "verdict": "safe", "issues": None})),
        Scripted(json.dumps({"verdict": "grounded", "unsupported_claims": None, "reasoning": "x"})),
    )
    for criterion in (LLMJudgeCriterion, SafetyCriterion, HallucinationCriterion):
        result = await judge(criterion(config()))
        assert (result.error, result.passed) == (None, True), criterion


def rubrics(*rubric_ids: str) -> CriterionConfig:
    return config(rubrics=[Rubric(rubric_id=r, content=f"the reply is {r}") for r in rubric_ids])


async def test_rubric_ids_match_whatever_their_case_and_unknown_ones_are_errors(
    judge_env: JudgeServer,
) -> None:
    def answer(*pairs: tuple[object, str]) -> Scripted:
        items = [{"rubric_id": rid, "verdict": v} for rid, v in pairs]
        return Scripted(json.dumps({"reasoning": "r", "rubrics": items}))

    judge_env.script(
        answer((" concise", "yes"), ("1", "no")),
        answer((1, "yes"), ("Concise", "yes")),  # a number for an id
        answer(("brief", "yes")),
    )
    criterion = RubricBasedCriterion(rubrics("Concise", "1"))
    first = await judge(criterion)
    assert (first.score, first.details["rubrics"]) == (0.5, {"Concise": True, "1": False})
    assert (await judge(criterion)).score == 1.0
    unknown = await judge(criterion)
    assert unknown.error is not None and "rubric ids ['brief'] are none of" in unknown.error


async def test_facts_numbered_outside_the_prompt_are_errors(judge_env: JudgeServer) -> None:
    facts = [{"fact": i, "verdict": "correct"} for i in (0, 1, 2)]
    judge_env.script(Scripted(json.dumps({"reasoning": "r", "facts": facts})))
    result = await judge(FactualAccuracyCriterion(config()))
    assert result.error is not None and "facts [0] are not among the facts 1 to 3" in result.error


async def test_weights_that_add_up_to_the_threshold_pass(judge_env: JudgeServer) -> None:
    items = [{"rubric_id": r, "verdict": v} for r, v in (("a", "yes"), ("b", "no"), ("c", "yes"))]
    judge_env.script(Scripted(json.dumps({"reasoning": "r", "rubrics": items})))
    weighted = [Rubric(rubric_id=r, content=r, weight=w) for r, w in (("a", 0.7), ("b", 0.1))]
    weighted.append(Rubric(rubric_id="c", content="c", weight=0.2))
    settings = config(rubrics=weighted).model_copy(update={"threshold": 0.9})
    result = await judge(RubricBasedCriterion(settings))
    assert (result.score, result.passed) == (0.9, True)  # not 0.8999999999999999


async def test_an_empty_reply_matches_an_empty_expected_reply_without_a_call(
    judge_env: JudgeServer,
) -> None:
    case = EvalCase.single_turn("quiet", "Say nothing.", expected_response="")
    result = await judge(LLMJudgeCriterion(config()), ExecutionResult(actual_response=""), case)
    assert (result.score, result.passed, len(judge_env.requests)) == (1.0, True, 0)


async def test_a_cache_that_cannot_be_written_keeps_the_score(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    judge_env.script(verdict("valid"))
    pool = JudgePool(cache_dir=blocked / "cache")
    result = await judge(LLMJudgeCriterion(config(judge_cache=True), pool))
    assert (result.error, result.passed, result.token_usage.total_tokens) == (None, True, 18)


async def test_a_cached_reply_that_no_longer_reads_is_asked_again(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    judge_env.script(verdict("valid"), verdict("valid"))
    cached = config(judge_cache=True)
    assert (await judge(LLMJudgeCriterion(cached, JudgePool()))).passed
    (entry,) = (tmp_path / "judge-cache").rglob("*.json")
    entry.write_text(json.dumps({"text": '{"verdict": "perhaps"}'}))  # an old or edited entry
    again = await judge(LLMJudgeCriterion(cached, JudgePool()))
    assert (again.error, again.passed, len(judge_env.requests)) == (None, True, 2)
    assert json.loads(entry.read_text())["text"] != '{"verdict": "perhaps"}'  # replaced
    entry.write_text(json.dumps({"text": None}))  # a miss, not the text "None"
    judge_env.script(verdict("valid"))
    assert (await judge(LLMJudgeCriterion(cached, JudgePool()))).passed
    assert len(judge_env.requests) == 3


def test_the_cache_keeps_two_servers_of_one_model_apart() -> None:
    a = JudgeCache.key("llama3", "p", 0, 0.0, "http://127.0.0.1:11434/v1")
    b = JudgeCache.key("llama3", "p", 0, 0.0, "http://127.0.0.1:8000/v1")
    assert a != b and JudgeCache.key("llama3", "p", 0, 0.0) != a
    assert a == JudgeCache.key("llama3", "p", 0, 0.0, "http://127.0.0.1:11434/v1/")


async def test_combined_criteria_surface_a_judge_error_and_count_judge_tokens(
    judge_env: JudgeServer,
) -> None:
    rouge = RougeMatchCriterion(CriterionConfig(threshold=0.0))
    weighted = WeightedCriterion([(rouge, 0.8), (SafetyCriterion(config()), 0.2)])
    judge_env.script(Scripted(status=400, content="bad request"))
    failed = await weighted.evaluate(REPLY, CASE)
    assert failed.error is not None and failed.error.startswith("safety_v1: ")
    assert not failed.passed
    judge_env.script(verdict("safe"), verdict("safe"))
    assert (await weighted.evaluate(REPLY, CASE)).token_usage.total_tokens == 18
    both = CompositeCriterion([rouge, SafetyCriterion(config())])
    assert (await both.evaluate(REPLY, CASE)).token_usage.total_tokens == 18
    pool = JudgePool()
    weighted.bind_judge_pool(pool)
    assert weighted.weighted[1][0].shared_judge_pool is pool
    bad = WeightedCriterion([(RougeMatchCriterion(CriterionConfig(threshold=2.0)), 1.0)])
    assert bad.validate_config() == ["rouge_match: threshold must be between 0 and 1"]


def test_a_criterion_registered_by_name_reports_that_name() -> None:
    from tenxeval_tui.evaluation import SyncCriterion, register_criterion

    @register_criterion(name="polite_for_test")
    class Polite(SyncCriterion):
        def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase):  # type: ignore[no-untyped-def]
            return self.result(1.0)

    assert Polite.name == "polite_for_test"
    assert Polite(CriterionConfig(threshold=3)).validate_config() == [
        "polite_for_test: threshold must be between 0 and 1"
    ]


def test_a_criterion_registered_before_the_built_ins_load_keeps_its_name() -> None:
    # In a fresh process, as a user's conftest would: register, then look up.
    code = (
        "from tenxeval_tui.evaluation.criteria.base import "
        "SyncCriterion, register_criterion, get_criterion_class\n"
        "@register_criterion\n"
        "class Mine(SyncCriterion):\n"
        "    name = 'rouge_match'\n"
        "    def evaluate_sync(self, actual, expected):\n"
        "        return self.result(0.5)\n"
        "print(get_criterion_class('rouge_match').__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )
    assert done.stdout.strip() == "Mine", done.stderr
