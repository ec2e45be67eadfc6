"""Running part of an eval set: limit, seeded sample, resuming a killed run, retrying errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalSet,
    RunJournal,
    create_eval_app,
    report_from_journal,
)
from tenxeval_tui.evaluation.subsets import (
    errored_ids,
    evaluate_with_retries,
    merge_results,
    pick_cases,
    unfinished,
)

from .coin_agent import EXACT, GOOD, CoinAgent, coin_set
from .conftest import config_with
from .test_repeats import CancelAfter


def test_pick_a_limit_or_a_seeded_sample_in_file_order() -> None:
    cases = coin_set(20).eval_cases
    assert [c.eval_id for c in pick_cases(cases, limit=3)] == ["q0", "q1", "q2"]
    sample = pick_cases(cases, sample=5, seed=4)
    assert len(sample) == 5
    assert sample == sorted(sample, key=cases.index)  # file order kept
    assert pick_cases(cases, sample=5, seed=4) == sample  # the seed decides
    assert {c.eval_id for c in pick_cases(cases, sample=5, seed=5)} != {c.eval_id for c in sample}
    assert pick_cases(cases, sample=50, seed=1) == cases
    assert pick_cases(cases) == cases
    with pytest.raises(ValueError, match="not both"):
        pick_cases(cases, limit=2, sample=2)
    with pytest.raises(ValueError, match="at least 1"):
        pick_cases(cases, limit=0)


async def test_a_killed_run_resumes_from_its_journal(tmp_path: Path) -> None:
    eval_set = coin_set(6)
    journal = tmp_path / "run.jsonl"
    first = CoinAgent(1.0)
    stopper = CancelAfter(3)
    app, collector = create_eval_app(first)
    evaluator = AgentEvaluator(
        app,
        collector,
        config_with(EXACT, max_concurrency=1),
        observers=[stopper, RunJournal(journal)],
    )
    stopper.evaluator = evaluator
    await evaluator.evaluate(eval_set)
    finished = report_from_journal(journal)
    assert finished.is_partial and [r.eval_id for r in finished.results] == ["q0", "q1", "q2"]
    assert [c.eval_id for c in unfinished(eval_set, finished).eval_cases] == ["q3", "q4", "q5"]

    second = CoinAgent(1.0)
    app, collector = create_eval_app(second)
    resumed = await evaluate_with_retries(
        AgentEvaluator(app, collector, config_with(EXACT)), eval_set, 0, done=finished
    )
    assert set(second.calls) == {"question 3", "question 4", "question 5"}
    assert [r.eval_id for r in resumed.results] == [f"q{i}" for i in range(6)]
    assert not resumed.is_partial and resumed.summary.passed_cases == 6


async def test_errored_cases_are_retried_up_to_the_given_times() -> None:
    calls: dict[str, int] = {}

    async def fails_twice(message: str, trace: object) -> str:
        calls[message] = calls.get(message, 0) + 1
        if message == "shaky" and calls[message] <= 2:
            raise ConnectionError("the model's API hung up")
        return GOOD

    eval_set = EvalSet(
        eval_set_id="s",
        eval_cases=[
            EvalCase.single_turn("steady", "steady", expected_response=GOOD),
            EvalCase.single_turn("shaky", "shaky", expected_response=GOOD),
        ],
    )
    app, collector = create_eval_app(fails_twice)
    evaluator = AgentEvaluator(app, collector, config_with(EXACT))
    once = await evaluate_with_retries(evaluator, eval_set, 1)
    assert errored_ids(once) == ["shaky"] and calls == {"steady": 1, "shaky": 2}

    calls.clear()
    twice = await evaluate_with_retries(evaluator, eval_set, 2)
    assert errored_ids(twice) == [] and calls == {"steady": 1, "shaky": 3}
    assert [r.eval_id for r in twice.results] == ["steady", "shaky"]
    assert twice.summary.passed_cases == 2


def test_merged_results_replace_the_same_cases_in_eval_set_order() -> None:
    from tenxeval_tui.evaluation import EvalCaseResult, EvalReport

    eval_set = coin_set(3)
    old = EvalReport.create(
        "coins", [EvalCaseResult.failure("q2", "boom"), EvalCaseResult(eval_id="q0", passed=True)]
    )
    new = EvalReport.create("coins", [EvalCaseResult(eval_id="q2", passed=True)])
    merged = merge_results(old, new, eval_set)
    assert [(r.eval_id, r.status) for r in merged.results] == [("q0", "passed"), ("q2", "passed")]
    assert merged.is_partial  # q1 has no result yet
    assert merged.summary.passed_cases == 2
