"""Scoring cost of ``tool_trajectory_avg_score`` per case: 50 expected calls with every
argument matcher on, beside plain exact matching of the same calls.

Each expected call has six arguments, one per matcher (``$regex``, ``$approx`` with a
tolerance, ``$contains``, ``$in``, ``$any``, ``$subset``), ``ignore_args`` drops a
timestamp the agent adds, and every trajectory rule is on (forbidden tools, per-tool and
total call bounds, a step bound, an ordering). The agent made 50 calls (five tools, ten
calls each). Rows:

- ``plain exact``: the floor: the same calls expected with literal arguments, exact
  match with ``check_args`` (what a case cost before matchers).
- ``matchers, <match type>``: all matchers on, every call matching.
- ``matchers, <match type>, 10 wrong``: ten calls whose query fails its ``$regex``, so
  ten expected calls are explained (closest call, failed matcher).

The cost is the criterion's whole ``evaluate`` (compiling the matchers, pairing, rules,
the details and reason), CPU time per case, median of rounds. Target: every matcher row
at most 5 ms per case. The machine may be shared: ``uptime`` is printed.

Run: .venv/bin/python bench/trajectory_matchers.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenxeval_tui.evaluation import (
    CriterionConfig,
    EvalCase,
    ExecutionResult,
    MatchType,
    ToolCall,
    TrajectoryMatchCriterion,
)

CALLS = 50
TOOLS = ("search", "fetch", "summarise", "translate", "store")
ROUNDS = 7
CASES_PER_ROUND = 40
TARGET_MS = 5.0


def actual_args(i: int, wrong: bool) -> dict[str, Any]:
    return {
        "query": f"{'zzz' if wrong else 'find'} item {i}",
        "limit": 10 + (i % 3) * 0.1,
        "text": f"a long text about topic {i} and more",
        "unit": "metric" if i % 2 else "imperial",
        "session": f"s-{i}",
        "filter": {"kind": "doc", "page": i, "lang": "en"},
        "timestamp": 1_712_000_000 + i,
    }


def matcher_args(i: int) -> dict[str, Any]:
    return {
        "query": {"$regex": rf"^find item {i}$"},
        "limit": {"$approx": 10.0, "tol": 0.5},
        "text": {"$contains": f"topic {i} "},
        "unit": {"$in": ["metric", "imperial"]},
        "session": {"$any": True},
        "filter": {"$subset": {"kind": "doc", "page": i}},
    }


def literal_args(i: int) -> dict[str, Any]:
    args = actual_args(i, wrong=False)
    del args["timestamp"]
    return args


def calls(make: Any) -> list[ToolCall]:
    return [ToolCall(name=TOOLS[i % len(TOOLS)], args=make(i)) for i in range(CALLS)]


def actual_run(wrong: int) -> ExecutionResult:
    made = [
        ToolCall(name=TOOLS[i % len(TOOLS)], args=actual_args(i, wrong=i < wrong))
        for i in range(CALLS)
    ]
    return ExecutionResult(tool_calls=made, node_visits=["MAIN", "TOOL"] * CALLS)


def literal_run() -> ExecutionResult:
    made = [ToolCall(name=TOOLS[i % len(TOOLS)], args=literal_args(i)) for i in range(CALLS)]
    return ExecutionResult(tool_calls=made, node_visits=["MAIN", "TOOL"] * CALLS)


RULES: dict[str, Any] = {
    "ignore_args": ["timestamp"],
    "forbidden_tools": ["delete_all"],
    "max_calls": {"search": 10, "*": 60},
    "min_calls": {"store": 1},
    "max_steps": 200,
    "before": [("search", "store")],
}


def per_case_ms(
    criterion: TrajectoryMatchCriterion, actual: ExecutionResult, case: EvalCase
) -> float:
    """CPU ms per case: the median of ``ROUNDS`` rounds of ``CASES_PER_ROUND`` cases."""
    rounds = []
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(CASES_PER_ROUND):
            result = criterion.evaluate_sync(actual, case)
        rounds.append((time.process_time() - start) / CASES_PER_ROUND * 1000)
    assert result.error is None, result.error
    return statistics.median(rounds)


def main() -> int:
    print(f"uptime: {os.popen('uptime').read().strip()}")
    print(f"{CALLS} expected calls, {CALLS} actual; CPU ms per case, median of {ROUNDS} rounds")
    plain_case = EvalCase.single_turn("plain", "q", expected_tools=calls(literal_args))
    matcher_case = EvalCase.single_turn("m", "q", expected_tools=calls(matcher_args))
    plain = TrajectoryMatchCriterion(CriterionConfig.trajectory(1.0, MatchType.EXACT, True))
    floor = per_case_ms(plain, literal_run(), plain_case)
    print(f"  {'plain exact (floor)':<32} {floor:7.3f} ms")
    missed = []
    for wrong in (0, 10):
        for match_type in MatchType:
            config = CriterionConfig.trajectory(1.0, match_type, True, **RULES)
            criterion = TrajectoryMatchCriterion(config)
            run = actual_run(wrong)
            result = criterion.evaluate_sync(run, matcher_case)
            matched = sum(1 for j in result.details["matched_calls"] if j is not None)
            assert matched == CALLS - wrong, (match_type, matched)
            assert result.details["rule_failures"] == []
            cost = per_case_ms(criterion, run, matcher_case)
            label = f"matchers, {match_type.value}" + (f", {wrong} wrong" if wrong else "")
            verdict = "ok" if cost <= TARGET_MS else "OVER TARGET"
            print(f"  {label:<32} {cost:7.3f} ms  ({cost / floor:4.1f}x the floor)  {verdict}")
            if cost > TARGET_MS:
                missed.append(label)
    print(f"target: every matcher row <= {TARGET_MS} ms per case")
    if missed:
        print("missed: " + ", ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
