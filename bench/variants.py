"""Five variants in one run against five separate runs of the same agents and cases.

The real console script (`tenxeval-tui run`) over CASES cases, five plain agents
(``bench_variants:v0`` ... ``v4``) answering after DELAY seconds (0: pure overhead; 0.02: a
quick model call), concurrency 4: one run with ``--agent v0 ... --agent v4`` (which also
writes the matrix report), and the five runs one after another. Prints the median wall
seconds of REPEATS of each and the ratio; exits 1 when the one run is slower than the five
(the target: no slower).

Run: .venv/bin/python bench/variants.py [CASES]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("tenxeval-tui")
VARIANTS = 5
REPEATS = 3
AGENTS = """
import asyncio, os
DELAY = float(os.environ.get("BENCH_DELAY", "0"))

def make(i):
    async def agent(message, trace):
        if DELAY:
            await asyncio.sleep(DELAY)
        reply = "right" if hash((i, message)) % 10 < 7 else "wrong"
        trace.node("model", response=reply, tokens={"input_tokens": 100})
        return reply
    return agent

""" + "\n".join(f"v{i} = make({i})" for i in range(VARIANTS))


def project(folder: Path, cases: int) -> None:
    (folder / "bench_variants.py").write_text(AGENTS)
    eval_cases = [
        {
            "eval_id": f"c{i}",
            "conversation": [
                {
                    "user_content": {"role": "user", "content": f"question {i}"},
                    "expected_final_response": {"role": "assistant", "content": "right"},
                }
            ],
        }
        for i in range(cases)
    ]
    (folder / "b.evalset.json").write_text(
        json.dumps({"eval_set_id": "b", "eval_cases": eval_cases})
    )
    (folder / "config.json").write_text(json.dumps({"criteria": {"exact_match": {"threshold": 1}}}))


def timed(folder: Path, agents: list[str], delay: float) -> float:
    flags = [flag for agent in agents for flag in ("--agent", agent)]
    started = time.perf_counter()
    done = subprocess.run(
        [
            str(SCRIPT),
            "run",
            "b.evalset.json",
            *flags,
            "--config",
            "config.json",
            "--quiet",
            "--no-html",
            "--concurrency",
            "4",
            "--output-dir",
            "out",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "BENCH_DELAY": str(delay)},
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr}")
    return seconds


def main() -> int:
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    names = [f"bench_variants:v{i}" for i in range(VARIANTS)]
    missed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project(folder, cases)
        for delay in (0.0, 0.02):
            together = statistics.median(timed(folder, names, delay) for _ in range(REPEATS))
            apart = statistics.median(
                sum(timed(folder, [name], delay) for name in names) for _ in range(REPEATS)
            )
            ok = together <= apart
            missed |= not ok
            print(
                f"{VARIANTS} variants x {cases} cases, agent delay {delay:g}s: one run "
                f"{together:.2f}s, {VARIANTS} separate runs {apart:.2f}s "
                f"(ratio {together / apart:.2f}; target <= 1.00: {'met' if ok else 'MISSED'})"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
