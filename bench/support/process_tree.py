"""What the whole-process benches share.

:func:`run_measured` runs one command to its end and returns its wall time, its CPU time, the peak
resident memory of its whole process tree (the command and every process under it,
summed, sampled from ``/proc`` every :data:`SAMPLE_SECONDS`) and, when the agent wrote the
marker file (``BENCH_FIRST_CASE``, see ``bench/support/echo_graph.py``), the seconds from
the start to its first case.
"""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLE_SECONDS = 0.02
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass(frozen=True)
class Measured:
    """One run of a command: its figures."""

    wall: float
    cpu: float
    """CPU seconds (user + system) of the whole tree, every process waited for."""
    peak_mb: float
    first_case: float | None
    status: int
    stderr: str


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                found.extend(int(child) for child in handle.read().split())
    except (OSError, ValueError):
        pass
    return found


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * PAGE_KB
    except (OSError, ValueError, IndexError):
        return 0


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and every process under it, in MB, right now."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _rss_kb(pid)
        todo.extend(_children(pid))
    return total / 1024


class TreePeak:
    """Samples a process tree's resident memory in a thread until :meth:`stop`."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.is_set():
            self.peak = max(self.peak, tree_rss_mb(self.root))
            self._done.wait(SAMPLE_SECONDS)

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        return self.peak


def run_measured(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Measured:
    """Run ``command`` in ``cwd`` to its end (stdout dropped); see the module's doc."""
    with tempfile.TemporaryDirectory(prefix="bench-first-") as tmp:
        marker = Path(tmp) / "first"
        environment = {**os.environ, **(env or {}), "BENCH_FIRST_CASE": str(marker)}
        # As a user's install runs: its bytecode cached (a shell saying
        # PYTHONDONTWRITEBYTECODE had every process of ours compile the package again,
        # while 10xGraph's, installed, came compiled).
        environment["PYTHONDONTWRITEBYTECODE"] = ""
        start_wall = time.time()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        child = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        sampler = TreePeak(child.pid)
        _, stderr = child.communicate()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        peak = sampler.stop()
        first = float(marker.read_text()) - start_wall if marker.is_file() else None
    return Measured(wall, cpu, peak, first, child.returncode, stderr)
