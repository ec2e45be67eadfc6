"""Harness overhead: milliseconds per case on top of the raw agent (target: <= 0.5 ms).

500 cases on a zero-latency agent. "Raw" calls the agent directly, "harness"
runs the same cases through AgentEvaluator (per-case capture, events, result
building, report). Printed for a plain agent and for a 10xGraph graph, each
with no criteria and with EvalConfig.default()'s criteria (trajectory + ROUGE-1).

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
REPEATS = 3


async def plain_agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", tool_calls=["get_weather"])
    result = trace.record_tool("get_weather", {"location": message}, "sunny")
    trace.node("MAIN", response=f"The weather in {message} is sunny.")
    return f"The weather in {message} is sunny. {result or ''}".strip()


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


async def best_of(run: Callable[[], Awaitable[None]]) -> float:
    """Best CPU seconds of a few runs: CPU time, so other processes on the machine do not count."""
    times = []
    for _ in range(REPEATS):
        started = time.process_time()
        await run()
        times.append(time.process_time() - started)
    return min(times)


def config(with_criteria: bool) -> EvalConfig:
    base = EvalConfig.default() if with_criteria else EvalConfig()
    base.reporter.enabled = False
    base.max_concurrency = 1
    return base


async def measure(name: str, raw: Callable[[], Awaitable[None]], target: Any) -> bool:
    cases = eval_set()
    raw_s = await best_of(raw)
    ok = True
    for with_criteria in (False, True):
        app, collector = create_eval_app(target)
        evaluator = AgentEvaluator(app, collector, config(with_criteria))

        async def harness(evaluator: AgentEvaluator = evaluator) -> None:
            await evaluator.evaluate(cases)

        harness_s = await best_of(harness)
        per_case = (harness_s - raw_s) / CASES * 1000
        label = "default criteria" if with_criteria else "no criteria"
        verdict = "ok" if per_case <= TARGET_MS else "OVER"
        print(
            f"{name:<9} {label:<17} raw {raw_s / CASES * 1000:6.3f} ms/case  "
            f"harness {harness_s / CASES * 1000:6.3f} ms/case  "
            f"overhead {per_case:6.3f} ms/case (target <= {TARGET_MS}) {verdict}"
        )
        ok = ok and (with_criteria or per_case <= TARGET_MS)
    return ok


async def main() -> None:
    logging.disable(logging.WARNING)
    messages = [f"Paris{i}" for i in range(CASES)]

    async def raw_plain() -> None:
        for message in messages:
            await plain_agent(message, NullTrace())  # type: ignore[arg-type]

    # The raw graph: compiled plainly, in a container of its own, no callbacks.
    with InjectQ().context():
        raw_graph = build_graph().compile()

        async def raw_tenxgraph() -> None:
            for i, message in enumerate(messages):
                data = turn_input(raw_graph, f"What is the weather in {message}?")
                await raw_graph.ainvoke(data, {"thread_id": f"raw-{i}-{time.monotonic_ns()}"})

        await measure("10xGraph", raw_tenxgraph, build_graph())
    await measure("plain", raw_plain, plain_agent)


if __name__ == "__main__":
    asyncio.run(main())
