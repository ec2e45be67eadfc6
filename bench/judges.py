"""200 cases judged by final_response_match_v2 (3 samples) against a judge answering in 20 ms,
at concurrency 16: wall seconds and judge calls on a first run and on a cached rerun
(target: the rerun makes 0 calls).

The judge is a real OpenAI-compatible HTTP server on 127.0.0.1 reached through the real
``openai`` client. The criteria are driven directly (the cases' agent work is not part of
this measure), with at most 16 cases at once as the evaluator does.

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
    CriterionConfig,
    EvalCase,
    EvalConfig,
    ExecutionResult,
    JudgePool,
    build_criteria,
)

ROOT = Path(__file__).resolve().parent.parent
CASES = 200
CONCURRENCY = 16
LATENCY = 0.020
SAMPLES = 3


async def run(
    config: EvalConfig, cases: list[EvalCase], reply: ExecutionResult
) -> tuple[float, int, int]:
    pool = JudgePool(max_concurrency=config.effective_concurrency)
    criteria = build_criteria(config, judge_pool=pool)
    limit = asyncio.Semaphore(config.effective_concurrency)

    async def one(case: EvalCase) -> int:
        async with limit:
            results = [await c.evaluate(reply, case) for c in criteria]
        assert all(r.error is None for r in results), results
        return sum(r.details.get("cache_hits", 0) for r in results)

    start = time.perf_counter()
    hits = await asyncio.gather(*(one(case) for case in cases))
    return time.perf_counter() - start, pool.calls, sum(hits)


def served(base_url: str) -> int:
    with urllib.request.urlopen(base_url.removesuffix("/v1") + "/stats") as response:
        return int(json.load(response)["requests"])


def main() -> None:
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
    config = EvalConfig(max_concurrency=CONCURRENCY)
    config.enable_criterion("final_response_match_v2", CriterionConfig(num_samples=SAMPLES))
    cases = [
        EvalCase.single_turn(f"c{i}", f"Weather in city {i}?", expected_response=f"Sunny in {i}.")
        for i in range(CASES)
    ]
    reply = ExecutionResult(actual_response="It is sunny.")
    try:
        ideal = CASES * SAMPLES * LATENCY / CONCURRENCY
        first = asyncio.run(run(config, cases, reply))
        first_served = served(base_url)
        again = asyncio.run(run(config, cases, reply))
        again_served = served(base_url) - first_served
    finally:
        server.terminate()
        server.wait()
    print(
        f"judges: {CASES} cases x {SAMPLES} samples, judge latency {LATENCY * 1000:.0f} ms, "
        f"concurrency {CONCURRENCY} (ideal {ideal:.2f} s)"
    )
    print(
        f"  first run : {first[0]:.2f} s, {first[1]} judge calls ({first_served} served), {first[2]} cache hits"
    )
    print(
        f"  cached run: {again[0]:.2f} s, {again[1]} judge calls ({again_served} served), {again[2]} cache hits"
        f"   target: 0 calls -> {'OK' if again[1] == 0 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
