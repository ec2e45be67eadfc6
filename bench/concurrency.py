"""Concurrency: wall seconds and correctly attributed cases (target: <= 0.8 s with 50/50).

50 cases of the 10xGraph weather agent, each making two model calls of 50 ms
(MAIN asks for get_weather, TOOL runs it, MAIN answers), at concurrency 8:
ideal 50 x 0.1 s / 8 = 0.625 s, one at a time 5 s. A case is attributed
correctly when its result holds exactly its own tool call (its own city as the
argument), the node order MAIN, TOOL, MAIN and a reply naming its city. Also
printed: 400 cases at concurrency 64 (ideal 0.625 s). The CPU seconds are
printed too: most of them are 10xGraph's own work per run (state copies,
dependency lookups, checkpoints), and on a busy machine they, not the model
calls, set the wall time. Side by side: the same 10xGraph runs with no harness
at all (the graph compiled by 10xGraph itself, ``ainvoke`` under a semaphore),
which bounds what any harness can reach on this machine, and a plain agent of
the same shape (two 50 ms sleeps around the tool), which shows the harness's
own concurrency. Last, two floors for the 50-case target: 7 runs of 10xGraph one
after another with nothing else running (what the busiest of 8 slots must do, in
any process layout), and 25 runs at concurrency 4 (the share of one worker if the
cases were spread over two processes, one per core).

Why the 50-case figure is about 0.7 s + the run's CPU, not 0.7 s + one case's: a convoy.
The 8 slots start together, sleep together and wake together; 10xGraph runs each case
through about 30 callbacks of the event loop (a task per node, ``asyncio.wait``, the
tool in an executor thread), so the 8 woken cases take turns callback by callback and
each is done only when all 8 are: every round waits for the CPU of all its cases, and
the slots never drift apart. Printed below the 50-case line: that prediction, and the
same bare runs with the slots started a few ms apart: what breaking the convoy gives.
(On a CPU clock, load-free: bare 0.90 s at once, 0.74-0.77 s staggered by 2-8 ms; the
harness 0.87-0.96 s, 0.755 s staggered by 6 ms. On the real clock, at load 1: bare
staggered 0.75-0.91 s in 4 runs: the loop neither keeps the slots' gaps nor closes
them, so a pause of the process can merge them again.)

Run: .venv/bin/python bench/concurrency.py
"""

from __future__ import annotations

import asyncio
import logging
import string
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sample_evals.weather_graph import build_graph, get_weather
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalConfig,
    EvalReport,
    EvalSet,
    Trace,
    create_eval_app,
)

MODEL_SECONDS = 0.05
TARGET_SECONDS = 0.8
# 50 cases in 8 slots means 7 runs one after another in the busiest slot, so no
# scheduler in any number of processes beats 7 uncontended runs; with one worker
# process per core, each would run 25 cases at concurrency 4.
STAGGER_SECONDS = 0.006
"""How far apart the slots of the no-convoy run start (2-8 ms all broke the convoy)."""
FLOORS = (
    (7, 1, "the busiest slot alone, nothing else running"),
    (25, 4, "one of two worker processes, one per core"),
)


def city(index: int) -> str:
    letters = string.ascii_lowercase
    return "City" + letters[index // 26 % 26] + letters[index % 26]


def eval_set(count: int) -> EvalSet:
    cases = [
        EvalCase.single_turn(f"case-{i}", f"What is the weather in {city(i)}?")
        for i in range(count)
    ]
    return EvalSet(eval_set_id=f"concurrency-{count}", eval_cases=cases)


def correctly_attributed(report: EvalReport) -> int:
    correct = 0
    for index, result in enumerate(report.results):
        name = city(index)
        calls = [(c.name, c.args) for c in result.actual_tool_calls]
        if (
            result.eval_id == f"case-{index}"
            and calls == [("get_weather", {"location": name})]
            and result.node_visits == ["MAIN", "TOOL", "MAIN"]
            and name in result.actual_response
            and result.error is None
        ):
            correct += 1
    return correct


async def plain_weather_agent(message: str, trace: Trace) -> str:
    """The same shape as the graph without 10xGraph: model call, tool, model call."""
    name = message.removeprefix("What is the weather in ").rstrip("?")
    await asyncio.sleep(MODEL_SECONDS)
    trace.node("MAIN", tool_calls=["get_weather"])
    result = await trace.tool("get_weather", {"location": name}, get_weather)
    trace.node("TOOL")
    await asyncio.sleep(MODEL_SECONDS)
    reply = f"The weather in {name} is {result}."
    trace.node("MAIN", response=reply)
    return reply


async def measure(count: int, concurrency: int, plain: bool = False) -> tuple[float, float, int]:
    target = plain_weather_agent if plain else build_graph(delay=MODEL_SECONDS)
    app, collector = create_eval_app(target)
    # parallel: EvalConfig's default runs cases one at a time (as 10xGraph 0.10.3's).
    config = EvalConfig(parallel=True, max_concurrency=concurrency)
    config.reporter.enabled = False
    evaluator = AgentEvaluator(app, collector, config)
    cases = eval_set(count)
    started, cpu_started = time.perf_counter(), time.process_time()
    report = await evaluator.evaluate(cases)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return wall, cpu, correctly_attributed(report)


async def measure_bare_graph(
    count: int, concurrency: int, stagger: float = 0.0
) -> tuple[float, float]:
    """The same cases through 10xGraph alone: no collector, no criteria, no harness;
    ``stagger``: slot ``k`` starts its first case ``k * stagger`` seconds late."""
    from tenxgraph.storage.checkpointer import InMemoryCheckpointer

    from tenxeval_tui.evaluation.targets.graph import user_message

    app = build_graph(delay=MODEL_SECONDS).compile(checkpointer=InMemoryCheckpointer())
    slots = asyncio.Semaphore(concurrency)

    async def run(index: int) -> None:
        async with slots:
            question = user_message(f"What is the weather in {city(index)}?")
            await app.ainvoke({"messages": [question]}, {"thread_id": uuid.uuid4().hex})

    indexes = iter(range(count))

    async def staggered_slot(number: int) -> None:
        await asyncio.sleep(number * stagger)
        for index in indexes:
            await run(index)

    started, cpu_started = time.perf_counter(), time.process_time()
    if stagger:
        await asyncio.gather(*(staggered_slot(k) for k in range(concurrency)))
    else:
        await asyncio.gather(*(run(i) for i in range(count)))
    return time.perf_counter() - started, time.process_time() - cpu_started


async def main() -> int:
    logging.disable(logging.WARNING)
    ok = True
    runs = ((50, 8, False), (400, 64, False), (50, 8, True), (400, 64, True))
    for count, concurrency, plain in runs:
        ideal = count * 2 * MODEL_SECONDS / concurrency
        seconds, cpu, correct = await measure(count, concurrency, plain)
        verdict = ""
        if count == 50 and not plain:
            ok = seconds <= TARGET_SECONDS and correct == count
            verdict = "ok" if ok else "MISSED"
        print(
            f"{'plain agent' if plain else '10xGraph':<11} "
            f"{count} cases, concurrency {concurrency}: {seconds:.3f} s wall "
            f"(ideal {ideal:.3f} s, target <= {TARGET_SECONDS} s; {cpu:.3f} s CPU), "
            f"{correct}/{count} attributed correctly {verdict}"
        )
        if count == 50 and not plain:
            rounds = -(-count // concurrency) * 2 * MODEL_SECONDS
            print(
                f"  convoy: {-(-count // concurrency)} rounds of 2 x {MODEL_SECONDS * 1000:.0f} ms"
                f" in the busiest slot ({rounds:.3f} s) + the run's CPU ({cpu:.3f} s)"
                f" = {rounds + cpu:.3f} s predicted"
            )
    for count, concurrency in ((50, 8), (400, 64)):
        seconds, cpu = await measure_bare_graph(count, concurrency)
        print(
            f"{'10xGraph alone, no harness':<11} {count} cases, concurrency {concurrency}: "
            f"{seconds:.3f} s wall ({cpu:.3f} s CPU)"
        )
    seconds, cpu = await measure_bare_graph(50, 8, stagger=STAGGER_SECONDS)
    print(
        f"10xGraph alone, no harness, slots started {STAGGER_SECONDS * 1000:.0f} ms apart"
        f" (no convoy) 50 cases, concurrency 8: {seconds:.3f} s wall ({cpu:.3f} s CPU)"
    )
    for count, concurrency, meaning in FLOORS:
        seconds, cpu = await measure_bare_graph(count, concurrency)
        print(
            f"floor: 10xGraph alone, {count} cases, concurrency {concurrency} ({meaning}): "
            f"{seconds:.3f} s wall ({cpu:.3f} s CPU)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
