"""A summary worked out in one pass (summary_totals.py): every figure the summary of the
whole list had, to the last bit of its floating-point sums."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalSummary
from tenxeval_tui.evaluation.stats import run_repeat_stats
from tenxeval_tui.evaluation.summary_totals import FloatSum
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tests.evaluation.results.varied_journal import varied_result


def _listed_summary(results: list[EvalCaseResult]) -> dict[str, Any]:
    """The summary as ``EvalSummary.from_results`` computed it over the whole list before
    it was running totals (the reference, kept verbatim)."""
    total = len(results)
    errored = sum(1 for r in results if r.is_error)
    passed = sum(1 for r in results if r.passed and not r.is_error)
    stats: dict[str, dict[str, Any]] = {}
    score_sums: dict[str, float] = {}
    for result in results:
        for cr in result.criterion_results:
            entry = stats.setdefault(cr.criterion, {"total": 0, "passed": 0, "failed": 0})
            entry["total"] += 1
            entry["passed" if cr.passed else "failed"] += 1
            score_sums[cr.criterion] = score_sums.get(cr.criterion, 0.0) + cr.score
            if cr.cost_usd is not None:
                entry["cost_usd"] = entry.get("cost_usd", 0.0) + cr.cost_usd
    for name, entry in stats.items():
        entry["avg_score"] = score_sums[name] / entry["total"]
        entry["pass_rate"] = entry["passed"] / entry["total"]
    seen: dict[str, int] = {}
    for result in results:
        seen[result.eval_id] = seen.get(result.eval_id, 0) + 1
    per_case: dict[str, TokenUsage] = {}
    for result in results:
        key = result.eval_id
        if seen[key] > 1:
            key = f"{result.eval_set_id}/{result.eval_id}" if result.eval_set_id else key
            base, n = key, 2
            while key in per_case:
                key, n = f"{base}#{n}", n + 1
        per_case[key] = result.token_usage
    tokens = TokenUsage.total(r.token_usage for r in results)
    duration = sum(r.duration_seconds for r in results)
    costs = [r.cost_usd for r in results if r.cost_usd is not None]
    return EvalSummary(
        total_cases=total,
        passed_cases=passed,
        failed_cases=total - passed - errored,
        error_cases=errored,
        pass_rate=passed / total,
        avg_duration_seconds=duration / total,
        total_duration_seconds=duration,
        criterion_stats=stats,
        total_token_usage=tokens,
        per_case_token_usage=per_case,
        avg_tokens_per_case=tokens.total_tokens / total,
        total_cost_usd=sum(costs) if costs else None,
        repeat_stats=run_repeat_stats([(r.repeat_stats, r.passed) for r in results]),
    ).model_dump()


@pytest.mark.parametrize("seed", range(6))
def test_the_summary_of_a_stream_is_the_summary_of_the_list(seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"c{rng.randint(0, 40)}" for _ in range(120)]  # some twice: keyed set/id, #2
    results = [varied_result(rng, eval_id, rng.choice(["", "a", "b"])) for eval_id in ids]

    streamed = EvalSummary.from_result_stream(iter(results))

    assert streamed.model_dump() == _listed_summary(results)
    assert EvalSummary.from_results(results) == streamed
    assert any("#" in key for key in streamed.per_case_token_usage)


def test_no_result_is_the_empty_summary() -> None:
    assert EvalSummary.from_result_stream(iter([])) == EvalSummary()


def test_a_running_float_sum_is_sum_to_the_last_bit() -> None:
    rng = random.Random(11)
    for _ in range(2_000):
        values = [
            rng.choice([rng.random() * 10 ** rng.randint(-9, 9), 1e16, -1e16, 0.1, -0.0])
            for _ in range(rng.randint(1, 40))
        ]
        running = FloatSum()
        for value in values:
            running.add(value)
        assert running.value == sum(values) or math.isnan(sum(values))
    naive = 0.0
    for value in [0.1] * 10:
        naive += value
    running = FloatSum()
    for value in [0.1] * 10:
        running.add(value)
    assert running.value == sum([0.1] * 10) == 1.0 != naive  # why a plain += would not do
