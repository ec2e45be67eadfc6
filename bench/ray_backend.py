"""The Ray backend's price: per-case cost of its round trip against the in-process evaluator.

1000 cases of a plain agent that does nothing (so only the harness is measured), at
concurrency 4, run through the worker child as ``tenxeval-tui run`` starts it: once by the
one in-process evaluator, once by one Ray actor (``--backend ray --workers 1``) on a local
Ray instance on 127.0.0.1 that the backend starts and stops. Printed: each run's wall time,
the time of its cases once warm (from the 20th ``case_end`` line to the last, so Ray's
start-up, the agent's import and the first scoring's imports are apart) and the difference per case, which is what each case pays
for its batch's trip to the actor and its lines' way back. Also the Ray start-up itself (wall
minus cases), which a cluster pays once.

The machine: ``os.cpu_count()`` cores shared with other work (load average printed).

Run: .venv/bin/python bench/ray_backend.py [--cases N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenxeval_tui.evaluation import EvalCase, EvalSet  # noqa: E402
from tenxeval_tui.evaluation.config.presets import preset_by_name  # noqa: E402
from tenxeval_tui.runs.plan import RunPlan  # noqa: E402

AGENT = """
async def agent(message, trace):
    trace.node("MAIN", response=message)
    return message
"""


WARM = 20
"""Cases left out of the timed window (the first scoring imports its scorer)."""


def run(plan: RunPlan, cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, seconds from the WARM-th case's end to the last's, cases ended)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        plan.command(), cwd=cwd, env=plan.worker_env(), stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    first = last = None
    ended = 0
    for line in child.stdout:
        if line.startswith('{"type": "case_end"'):
            last = time.perf_counter()
            ended += 1
            if ended == WARM:
                first = last
    child.wait()
    assert child.returncode == 0 and first is not None and last is not None, child.returncode
    return time.perf_counter() - start, last - first, ended


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=1000)
    args = parser.parse_args()
    try:
        import ray  # noqa: F401
    except ImportError:
        print("the ray extra is not installed: pip install '.[ray]'")
        return
    print(f"machine: {os.cpu_count()} cores (shared), load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "noop_agent.py").write_text(AGENT)
        path = folder / "noop.evalset.json"
        cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(args.cases)]
        EvalSet(eval_set_id="noop", eval_cases=cases).to_file(path)
        config = preset_by_name("quick_check")
        config.max_concurrency, config.parallel = 4, True
        config.reporter.enabled = False
        plan = RunPlan(
            agent="noop_agent:agent", eval_sets=[path], config=config, search_path=folder
        )
        local = run(plan, folder)
        remote = run(plan.model_copy(update={"backend": "ray", "workers": 1}), folder)
    assert local[2] == remote[2] == args.cases, (local[2], remote[2])
    timed = args.cases - WARM
    per_local = local[1] / timed * 1000
    per_remote = remote[1] / timed * 1000
    print(f"{args.cases} cases, concurrency 4   wall      last {timed} cases   per case")
    print(f"in-process evaluator        {local[0]:6.2f} s  {local[1]:6.2f} s  {per_local:6.2f} ms")
    print(
        f"Ray, 1 actor                {remote[0]:6.2f} s  {remote[1]:6.2f} s  {per_remote:6.2f} ms"
    )
    print(
        f"Ray's round trip: {per_remote - per_local:+.2f} ms per case; its start-up (a local "
        f"instance, the actor, the agent's import): {remote[0] - remote[1]:.1f} s, "
        f"against {local[0] - local[1]:.1f} s in-process"
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        main()
