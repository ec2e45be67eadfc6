"""200 cases judged by final_response_match_v2 (3 samples) against a judge answering in 20 ms,
at concurrency 16: wall seconds and judge calls on a first run and on a cached rerun
(target: the rerun makes 0 calls).

The judge is a real OpenAI-compatible HTTP server on 127.0.0.1 (its own process) reached
through the real ``openai`` client; the cases run through the real AgentEvaluator with a
plain agent that answers at once, so the figures are judging plus harness.

Run: .venv/bin/python bench/judges.py
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    EvalCase,
    EvalConfig,
    EvalSet,
    create_eval_app,
)
from tenxeval_tui.evaluation.criteria.llm_base import JudgedCriterion
from tenxeval_tui.evaluation.targets import Trace

ROOT = Path(__file__).resolve().parent.parent
CASES = 200
CONCURRENCY = 16
LATENCY = 0.020
SAMPLES = 3


async def agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", response="It is sunny.")
    return "It is sunny."


async def run(config: EvalConfig, eval_set: EvalSet) -> tuple[float, int, int, float]:
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector, config)
    start, cpu = time.perf_counter(), time.process_time()
    report = await evaluator.evaluate(eval_set)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    results = [cr for r in report.results for cr in r.criterion_results]
    assert len(report.results) == CASES and all(cr.error is None for cr in results), results[:3]
    calls = sum(c.judge_pool.calls for c in evaluator.criteria if isinstance(c, JudgedCriterion))
    return wall, calls, sum(cr.details.get("cache_hits", 0) for cr in results), cpu


def served(base_url: str) -> int:
    with urllib.request.urlopen(base_url.removesuffix("/v1") + "/stats") as response:
        return int(json.load(response)["requests"])


def main() -> int:
    # The judge runs in its own process so that its threads do not share our GIL.
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.evaluation.criteria.judge_server", "--delay", str(LATENCY)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    base_url = server.stdout.readline().strip()
    cache = tempfile.mkdtemp(prefix="tenxeval-judge-bench-")
    os.environ.update(
        TENXEVAL_JUDGE_MODEL="bench-judge",
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL=base_url,
        TENXEVAL_JUDGE_CACHE_DIR=cache,
    )
    # parallel: EvalConfig's default runs cases one at a time (as 10xGraph 0.10.3's).
    config = EvalConfig(parallel=True, max_concurrency=CONCURRENCY)
    config.reporter.enabled = False
    config.enable_criterion("final_response_match_v2", CriterionConfig(num_samples=SAMPLES))
    cases = [
        EvalCase.single_turn(f"c{i}", f"Weather in city {i}?", expected_response=f"Sunny in {i}.")
        for i in range(CASES)
    ]
    eval_set = EvalSet(eval_set_id="judge-bench", eval_cases=cases)
    try:
        ideal = CASES * SAMPLES * LATENCY / CONCURRENCY
        first = asyncio.run(run(config, eval_set))
        first_served = served(base_url)
        again = asyncio.run(run(config, eval_set))
        again_served = served(base_url) - first_served
    finally:
        server.terminate()
        server.wait()
    print(
        f"judges: {CASES} cases x {SAMPLES} samples, judge latency {LATENCY * 1000:.0f} ms, "
        f"concurrency {CONCURRENCY} (ideal {ideal:.2f} s)"
    )
    print(
        f"  first run : {first[0]:.2f} s, {first[1]} judge calls ({first_served} served), {first[2]} cache hits, {first[3]:.2f} s CPU here"
    )
    print(
        f"  cached run: {again[0]:.2f} s, {again[1]} judge calls ({again_served} served), {again[2]} cache hits, {again[3]:.2f} s CPU"
        f"   target: 0 calls -> {'OK' if again[1] == 0 else 'MISSED'}"
    )
    return 0 if again[1] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
