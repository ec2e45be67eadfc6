"""Harness overhead: milliseconds per case on top of the raw agent (target: <= 0.5 ms).

500 cases on a zero-latency agent. "Raw" calls the agent directly; "harness"
runs the same cases through AgentEvaluator (per-case capture, events, result
building, report). Printed for a plain agent and for a 10xGraph graph (scripted
model + tool node), with no criteria (the harness alone, which the target is
about) and with EvalConfig.default()'s criteria (trajectory + ROUGE-1), for
reference. CPU time, best of interleaved repeats, so that other processes on a
shared machine disturb the figures as little as possible.

Run: .venv/bin/python bench/overhead.py
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from injectq import InjectQ

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalConfig,
    EvalSet,
    Trace,
    create_eval_app,
)
from tenxeval_tui.evaluation.targets import turn_input

CASES = 500
TARGET_MS = 0.5
REPEATS = 7

Run = Callable[[], Awaitable[None]]


async def plain_agent(message: str, trace: Trace) -> str:
    """Zero latency: a model node asking for a tool, the tool, the answering model node."""
    trace.node("MAIN", tool_calls=["get_weather"], tokens={"input_tokens": 8})
    trace.record_tool("get_weather", {"location": message}, "sunny")
    reply = f"The weather in {message} is sunny."
    trace.node("MAIN", response=reply, tokens={"input_tokens": 12, "output_tokens": 6})
    return reply


class NullTrace:
    """What the raw plain agent reports to: nothing."""

    def node(self, *args: Any, **kwargs: Any) -> None:
        return None

    def record_tool(self, *args: Any, **kwargs: Any) -> None:
        return None


def eval_set() -> EvalSet:
    cases = [
        EvalCase.single_turn(
            f"c{i}",
            f"What is the weather in Paris{i}?",
            expected_response="The weather is sunny.",
            expected_tools=["get_weather"],
        )
        for i in range(CASES)
    ]
    return EvalSet(eval_set_id="overhead", eval_cases=cases)


def config(with_criteria: bool) -> EvalConfig:
    base = EvalConfig.default() if with_criteria else EvalConfig()
    base.reporter.enabled = False
    base.max_concurrency = 1
    return base


async def best_cpu_seconds(runs: dict[str, Run]) -> dict[str, float]:
    """Best CPU seconds of each run, alternating between them REPEATS times."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(REPEATS):
        for name, run in runs.items():
            started = time.process_time()
            await run()
            best[name] = min(best[name], time.process_time() - started)
    return best


def harness(target: Any, with_criteria: bool) -> Run:
    app, collector = create_eval_app(target)
    evaluator = AgentEvaluator(app, collector, config(with_criteria))
    cases = eval_set()

    async def run() -> None:
        await evaluator.evaluate(cases)

    return run


def report(name: str, best: dict[str, float]) -> bool:
    raw = best["raw"] / CASES * 1000
    ok = True
    for label in ("no criteria", "default criteria"):
        total = best[label] / CASES * 1000
        overhead = total - raw
        verdict = ""
        if label == "no criteria":
            ok = overhead <= TARGET_MS
            verdict = "ok" if ok else "OVER"
        print(
            f"{name:<9} {label:<17} raw {raw:6.3f}  harness {total:6.3f}  "
            f"overhead {overhead:6.3f} ms/case (target <= {TARGET_MS}) {verdict}"
        )
    return ok


async def main() -> int:
    logging.disable(logging.WARNING)
    messages = [f"Paris{i}" for i in range(CASES)]

    async def raw_plain() -> None:
        for message in messages:
            await plain_agent(message, NullTrace())  # type: ignore[arg-type]

    # The raw graph: compiled plainly and run in a container of its own, no callbacks.
    container = InjectQ()
    with container.context():
        raw_graph = build_graph().compile()

    async def raw_tenxgraph() -> None:
        with container.context():
            for message in messages:
                data = turn_input(raw_graph, f"What is the weather in {message}?")
                await raw_graph.ainvoke(data, {"thread_id": f"raw-{time.monotonic_ns()}"})

    ok = True
    for name, raw, target in (
        ("plain", raw_plain, plain_agent),
        ("10xGraph", raw_tenxgraph, build_graph()),
    ):
        runs = {"raw": raw, "no criteria": harness(target, False)}
        if name == "10xGraph":
            target = build_graph()  # a StateGraph compiles once
        runs["default criteria"] = harness(target, True)
        ok = report(name, await best_cpu_seconds(runs)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
