"""Repeats: harness overhead per repeat against per case, and rescoring a large report.

1. 1,000 cases x 5 repeats on a zero-latency plain agent, beside 1,000 cases and
   5,000 cases run once. The overhead is the harness's CPU time minus the agent's
   own (the same calls made directly), per run: per case for repeats=1, per
   repeat for repeats=5. Target: per repeat within 10% of per case. The fair
   comparison is with the 5,000-case run: a report holding 5,000 runs makes
   Python's cyclic garbage collector walk more objects whether they are 5,000
   cases or 1,000 cases of 5 repeats; the 1,000-case figure is today's per-case
   cost of a smaller run. With no criteria (the harness alone) and with
   ``EvalConfig.default()``'s criteria; medians of rounds that interleave the
   three settings.
2. :func:`rescore_report` on a 10,000-case report (a real run of 200 cases,
   repeated to 10,000 with new ids), with deterministic criteria: exact tool
   trajectory with arguments, node order and ROUGE-1 response match. Target: at
   most 2 s (median of 5; wall and CPU time printed, the machine may be shared).

3. :func:`case_histories` over 50 runs of 1,000 cases (light outcomes, as a report
   index has them): the computation behind a flakiness view.

Run: .venv/bin/python bench/repeats.py
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    EvalCase,
    EvalConfig,
    EvalReport,
    EvalSet,
    ToolCall,
    Trace,
    create_eval_app,
)
from tenxeval_tui.evaluation.analysis.compare import CaseOutcome, RunOutcome
from tenxeval_tui.evaluation.analysis.flakiness import case_histories
from tenxeval_tui.evaluation.rescore import rescore_report

CASES = 1_000
REPEATS = 5
ROUNDS = 3
RESCORE_CASES = 10_000
RESCORE_TARGET_S = 2.0


async def plain_agent(message: str, trace: Trace) -> str:
    """Zero latency: a model node asking for a tool, the tool, the answering model node."""
    trace.node("MAIN", tool_calls=["get_weather"], tokens={"input_tokens": 8})
    trace.record_tool("get_weather", {"location": message}, "sunny")
    reply = f"The weather in {message} is sunny."
    trace.node("MAIN", response=reply, tokens={"input_tokens": 12, "output_tokens": 6})
    return reply


class NullTrace:
    """What the raw agent reports to: nothing."""

    def node(self, *args: Any, **kwargs: Any) -> None:
        return None

    def record_tool(self, *args: Any, **kwargs: Any) -> None:
        return None


def cases(count: int, start: int = 0) -> list[EvalCase]:
    return [
        EvalCase.single_turn(
            f"c{i}",
            f"Paris{i}",
            expected_response=f"The weather in Paris{i} is sunny.",
            expected_tools=[ToolCall(name="get_weather", args={"location": f"Paris{i}"})],
            expected_node_order=["MAIN", "MAIN"],
        )
        for i in range(start, start + count)
    ]


def config(repeats: int, with_criteria: bool) -> EvalConfig:
    base = EvalConfig.default() if with_criteria else EvalConfig()
    base.reporter.enabled = False
    base.max_concurrency = 1
    base.repeats = repeats
    return base


async def raw(messages: list[str], times: int) -> None:
    for message in messages:
        for _ in range(times):
            await plain_agent(message, NullTrace())  # type: ignore[arg-type]


async def overhead_ms(case_count: int, repeats: int, with_criteria: bool) -> float:
    """CPU ms per run that one evaluation adds on top of the agent's own calls."""
    evaluator = AgentEvaluator(*create_eval_app(plain_agent), config(repeats, with_criteria))
    eval_set = EvalSet(eval_set_id="bench", eval_cases=cases(case_count))
    messages = [f"Paris{i}" for i in range(case_count)]
    gc.collect()
    began = time.process_time()
    await raw(messages, repeats)
    raw_s = time.process_time() - began
    gc.collect()
    began = time.process_time()
    await evaluator.evaluate(eval_set)
    harness_s = time.process_time() - began
    return (harness_s - raw_s) / (case_count * repeats) * 1000


SETTINGS = (
    (f"{CASES} cases, repeats=1", CASES, 1),
    (f"{CASES * REPEATS} cases, repeats=1", CASES * REPEATS, 1),
    (f"{CASES} cases, repeats={REPEATS}", CASES, REPEATS),
)


async def overheads(with_criteria: bool) -> list[float]:
    """Median ms per run of each setting, over rounds that interleave them."""
    rounds: list[list[float]] = [[] for _ in SETTINGS]
    for _ in range(ROUNDS):
        for index, (_, count, repeats) in enumerate(SETTINGS):
            rounds[index].append(await overhead_ms(count, repeats, with_criteria))
    return [statistics.median(r) for r in rounds]


def rescore_config() -> EvalConfig:
    run = EvalConfig(max_concurrency=1)
    run.reporter.enabled = False
    run.enable_criterion(
        "tool_trajectory_avg_score", CriterionConfig(threshold=1.0, check_args=True)
    )
    run.enable_criterion("node_order_score", CriterionConfig(threshold=1.0))
    run.enable_criterion("response_match_score", CriterionConfig(threshold=0.8))
    return run


async def large_report() -> EvalReport:
    seed_cases = 200
    evaluator = AgentEvaluator(*create_eval_app(plain_agent), rescore_config())
    report = await evaluator.evaluate(EvalSet(eval_set_id="big", eval_cases=cases(seed_cases)))
    results = [
        r.model_copy(update={"eval_id": f"{r.eval_id}-{n}"})
        for n in range(RESCORE_CASES // seed_cases)
        for r in report.results
    ]
    return EvalReport.create("big", results, config_used=report.config_used)


HISTORY_RUNS = 50
HISTORY_CASES = 1_000


def history_seconds() -> float:
    """Median time of :func:`case_histories` over 50 runs of 1,000 cases."""
    rng = random.Random(1)
    runs = [
        RunOutcome(
            title="big",
            pass_rate=0.0,
            cases=[
                CaseOutcome("big", f"c{i}", "", "passed" if rng.random() < 0.9 else "failed")
                for i in range(HISTORY_CASES)
            ],
            criteria={},
        )
        for _ in range(HISTORY_RUNS)
    ]
    timings = []
    for _ in range(3):
        began = time.perf_counter()
        histories = case_histories(runs)
        timings.append(time.perf_counter() - began)
    assert len(histories) == HISTORY_CASES and histories[0].flips > 0
    return statistics.median(timings)


async def main() -> int:
    logging.disable(logging.WARNING)
    ok = True
    print(f"Harness overhead, CPU ms per run (zero-latency plain agent, medians of {ROUNDS})")
    print(f"{'':17} " + " ".join(f"{label:>24}" for label, _, _ in SETTINGS) + "   ratio")
    for label, with_criteria in (("no criteria", False), ("default criteria", True)):
        per_case, same_size, per_repeat = await overheads(with_criteria)
        ratio = per_repeat / same_size if same_size > 0 else float("inf")
        verdict = "ok" if ratio <= 1.10 else "OVER"
        if not with_criteria:
            ok = ok and ratio <= 1.10
        print(
            f"{label:<17} {per_case:21.3f} ms {same_size:21.3f} ms {per_repeat:21.3f} ms "
            f"{ratio:6.2f}x (per repeat / per case of a run as large; target <= 1.10x) "
            f"{verdict}"
        )
    report = await large_report()
    config = rescore_config()
    wall, cpu = [], []
    for _ in range(5):
        began, began_cpu = time.perf_counter(), time.process_time()
        rescored = await rescore_report(report, config)
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    assert rescored.summary.passed_cases == RESCORE_CASES
    took, took_cpu = statistics.median(wall), statistics.median(cpu)
    verdict = "ok" if took <= RESCORE_TARGET_S else "OVER"
    ok = ok and took <= RESCORE_TARGET_S
    print(
        f"rescore {RESCORE_CASES} cases x 3 deterministic criteria: {took:.2f} s wall, "
        f"{took_cpu:.2f} s CPU (medians of 5; target <= {RESCORE_TARGET_S} s) {verdict}"
    )
    took_history = history_seconds()
    print(
        f"case_histories over {HISTORY_RUNS} runs of {HISTORY_CASES} cases: {took_history:.2f} s "
        "(the flakiness view's computation, from light outcomes; the view's own budget is 1 s)"
    )
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
