"""A run journal of every kind of case (passed, failed, errored, repeated, with tokens,
costs, judge reasons, tool calls and node responses), written by the real
:class:`RunJournal` as a run writes it: for comparing what reads it back."""

from __future__ import annotations

import random
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet, ToolCall
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    CriterionResult,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.results.journal import RunJournal
from tenxeval_tui.evaluation.stats import RepeatStats
from tenxeval_tui.evaluation.token_usage import TokenUsage

CONFIG = {"criteria": {"exact_match": {"threshold": 1.0}, "judge": {"threshold": 0.5}}}


def _criteria(rng: random.Random, passed: bool) -> list[CriterionResult]:
    exact = rng.choice([0.0, 1.0]) if not passed else 1.0
    judged = rng.random()
    return [
        CriterionResult(criterion="exact_match", score=exact, passed=exact >= 1.0, threshold=1.0),
        CriterionResult(
            criterion="judge",
            score=judged,
            passed=passed or judged >= 0.5,
            threshold=0.5,
            details={"reason": f"=cmd|' /C calc'!A0 <b>{judged:.3f}</b> \x1b[31m"},
            token_usage=TokenUsage(input_tokens=rng.randint(0, 90), output_tokens=7),
            cost_usd=rng.random() / 1000,
        ),
    ]


def varied_result(rng: random.Random, eval_id: str, set_id: str = "") -> EvalCaseResult:
    """One case result of a random kind."""
    kind = rng.choice(["passed", "failed", "error", "repeated"])
    metadata = {EVAL_SET_ID_KEY: set_id} if set_id else {}
    tokens = TokenUsage(input_tokens=rng.randint(0, 500), output_tokens=rng.randint(0, 90))
    common = {
        "eval_id": eval_id,
        "name": f"case {eval_id}" if rng.random() < 0.7 else "",
        "duration_seconds": rng.random() * 10 ** rng.randint(-3, 2),
        "actual_response": rng.choice(["Paris", "", "-1 + 2", "line one\nline two"]),
        "actual_tool_calls": [ToolCall(name="lookup", args={"q": eval_id})],
        "node_responses": [{"node_name": "MAIN", "response_text": "ok", "is_final": True}],
        "token_usage": tokens,
        "cost_usd": rng.random() / 100 if rng.random() < 0.8 else None,
        "metadata": metadata,
    }
    if kind == "error":
        return EvalCaseResult(passed=False, error=f"boom in {eval_id}\ntraceback", **common)
    if kind != "repeated":
        passed = kind == "passed"
        return EvalCaseResult(passed=passed, criterion_results=_criteria(rng, passed), **common)
    outcomes = [rng.random() < 0.6 for _ in range(3)]
    repeats = [
        EvalCaseResult(
            passed=ok,
            criterion_results=_criteria(rng, ok),
            **{**common, "metadata": {**metadata, "repeat": index}},
        )
        for index, ok in enumerate(outcomes)
    ]
    stats = RepeatStats.of(outcomes)
    return EvalCaseResult(
        passed=sum(outcomes) == len(outcomes),
        criterion_results=repeats[0].criterion_results,
        repeat_results=repeats,
        repeat_stats=stats,
        **common,
    )


def write_varied_journal(
    path: Path,
    cases: int = 60,
    *,
    sets: int = 2,
    seed: int = 7,
    finish: bool = True,
    in_order: bool = False,
) -> list[str]:
    """A journal of ``sets`` runs of ``cases`` cases each, finished out of order (as
    several cases at once finish) unless ``in_order``; the last eval set's run left
    unfinished unless ``finish``. The sets share their case ids. Returns the eval set
    ids."""
    rng = random.Random(seed)
    journal = RunJournal(path, config_used=CONFIG)
    set_ids = []
    for number in range(sets):
        set_id = f"set{number}"
        set_ids.append(set_id)
        eval_cases = [EvalCase.single_turn(f"c{i}", f"q{i}", "Paris") for i in range(cases)]
        eval_set = EvalSet(eval_set_id=set_id, name=f"Set {number}", eval_cases=eval_cases)
        journal.report_metadata[set_id] = {"provenance": {"eval_set_sha256": f"{number:064x}"}}
        journal.on_run_start(eval_set, eval_cases)
        order = list(range(cases))
        for i in range(0, cases - 3, 4) if not in_order else ():  # some swapped
            order[i], order[i + 3] = order[i + 3], order[i]
        results = [varied_result(rng, f"c{i}", set_id) for i in order]
        for result in results:
            journal.on_case_end(result)
        if finish or number < sets - 1:
            done = EvalReport.create(set_id, results, wall_seconds=1.5 + number)
            journal.on_run_end(done)
    return set_ids
