"""Run the timing-sensitive tests with the CPU loaded: ``make test-stress``.

The suite must hold on a busy, shared machine (CI may run while it is loaded). This starts
``--busy`` processes that spin on a core each, runs pytest on the TUI, worker, watch, CLI
and evaluator tests while they spin (on ``--workers`` xdist workers, as ``make pytest``
does), stops them whatever happens, and exits with pytest's status. ``--rounds N`` repeats the run and stops at the first failure; with
``--keep-going`` every round runs and a summary says how many passed (to hunt a flaky
test: repeat only the suspicious files many times).

    python -m tests.stress                 # two busy processes, the default selection
    python -m tests.stress --busy 4 --rounds 3 -- tests/tui -x
    python -m tests.stress --rounds 20 --keep-going -- tests/tui/common/test_navigation.py
    python -m tests.stress --workers 0     # in one process, without xdist
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Sequence

DEFAULT_SELECTION = (
    "tests/tui",
    "tests/cli",
    "tests/runs",
    "tests/evaluation/reporters/test_html_browser.py",
    "tests/evaluation/test_evaluator.py",
    "tests/evaluation/test_runner.py",
    "tests/evaluation/targets",
)


def spin() -> None:
    """Keep one core busy until killed."""
    while True:
        pass


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="python -m tests.stress", description=__doc__)
    parser.add_argument("--busy", type=int, default=2, help="busy processes (default 2)")
    parser.add_argument("--rounds", type=int, default=1, help="runs in a row (default 1)")
    parser.add_argument(
        "--workers",
        default="auto",
        help="pytest-xdist workers, as `make pytest` runs them (default auto; 0: none)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="run every round even after a failure; say how many passed",
    )
    args, rest = parser.parse_known_args(argv)
    pytest_args = [a for a in rest if a != "--"] or list(DEFAULT_SELECTION)
    return args, pytest_args


def xdist_args(workers: str) -> list[str]:
    """The pytest options that run on ``workers`` xdist workers the way ``make pytest`` does."""
    return ["-n", workers, "--dist", "loadgroup"]


def run_round(pytest_args: list[str], busy: int) -> int:
    """One pytest run with ``busy`` spinning processes; returns pytest's exit status."""
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(busy)]
    for spinner in spinners:
        spinner.start()
    try:
        started = time.monotonic()
        print(f"stress: {busy} busy processes, load average {os.getloadavg()[0]:.1f}", flush=True)
        # The busy processes take half the machine or more: a wait that normally has 30 s
        # gets 60 (a race still fails; only a slow-but-right run is given the time it needs).
        env = {**os.environ}
        env.setdefault("TENXEVAL_TEST_TIMEOUT_SCALE", "2")
        status = subprocess.call([sys.executable, "-m", "pytest", "-q", *pytest_args], env=env)
        print(
            f"stress: pytest exited {status} after {time.monotonic() - started:.0f} s, "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        return status
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()


def summary(statuses: Sequence[int], seconds: Sequence[float]) -> str:
    """One line: how many rounds passed, which failed and how long each took."""
    failed = [str(n) for n, status in enumerate(statuses, 1) if status != 0]
    times = ", ".join(f"{s:.0f}" for s in seconds)
    return (
        f"stress: {len(statuses) - len(failed)} of {len(statuses)} rounds passed"
        + (f" (failed: round {', '.join(failed)})" if failed else "")
        + f"; durations {times} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args, pytest_args = parse(sys.argv[1:] if argv is None else argv)
    statuses: list[int] = []
    seconds: list[float] = []
    for number in range(1, args.rounds + 1):
        print(f"stress: round {number} of {args.rounds}", flush=True)
        started = time.monotonic()
        statuses.append(run_round([*xdist_args(args.workers), *pytest_args], args.busy))
        seconds.append(time.monotonic() - started)
        if statuses[-1] != 0 and not args.keep_going:
            break
    print(summary(statuses, seconds), flush=True)
    return next((status for status in statuses if status != 0), 0)


if __name__ == "__main__":
    sys.exit(main())
