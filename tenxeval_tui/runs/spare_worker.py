"""A run's worker child started before its plan is known, so that its imports overlap the
parent's (issue #38).

``tenxeval-tui run`` needs a worker child (:mod:`tenxeval_tui.runs.worker`) for its cases,
and both processes import most of the core. Started one after the other, a 1-case run paid
for both imports in turn. :meth:`SpareWorker.start` starts the worker first, as
``python -m tenxeval_tui.runs.worker -``: it imports what every run needs while the parent
reads its flags, settings and eval sets, then waits for one line on its stdin,
:func:`handover_line` (the plan, and the environment the worker would have been started
with: the judges' variables the settings set, the agent's folder on ``PYTHONPATH``).
:meth:`SpareWorker.hand` sends it; :meth:`SpareWorker.discard` ends a worker that was never
handed a plan (a usage error, nothing to run) at once. A worker whose stdin ends before a
plan exits 0 without a line.

Only the standard library is imported here: the worker is started before anything else.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping

from tenxeval_tui.runs.parent_watch import PARENT_PID_ENV

PLAN_ON_STDIN = "-"
"""The worker's argument that says its plan comes as the first line of its stdin."""


def worker_command(plan_argument: str) -> list[str]:
    """The command line of a worker child given ``plan_argument`` (the plan's JSON,
    ``@FILE`` or :data:`PLAN_ON_STDIN`)."""
    return [sys.executable, "-m", "tenxeval_tui.runs.worker", plan_argument]


def handover_line(plan_json: str, env: Mapping[str, str]) -> bytes:
    """The line a spare worker reads: the plan's JSON and its environment."""
    return (json.dumps({"plan": plan_json, "env": dict(env)}) + "\n").encode("utf-8")


class SpareWorker:
    """One worker child waiting for its plan (see the module)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process: subprocess.Popen[bytes] | None = process

    @classmethod
    def start(cls) -> SpareWorker | None:
        """A worker started now, with this process's environment (unbuffered, this process
        named as its parent); ``None`` when it cannot be started (the run starts one later)."""
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        env[PARENT_PID_ENV] = str(os.getpid())
        try:
            process = subprocess.Popen(
                worker_command(PLAN_ON_STDIN),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
        except OSError:
            return None
        return cls(process)

    def hand(self, plan_json: str, env: Mapping[str, str]) -> subprocess.Popen[bytes] | None:
        """The worker, given the plan ``plan_json`` to run with ``env``; ``None`` when it
        was handed one already or is gone (start another). Its stdin is closed after the
        plan: ``tenxeval-tui run`` sends no command."""
        process, self.process = self.process, None
        if process is None:
            return None
        try:
            assert process.stdin is not None
            process.stdin.write(handover_line(plan_json, env))
            process.stdin.close()
        except (BrokenPipeError, OSError):
            _end(process)
            return None
        return process

    def discard(self) -> None:
        """End the worker unless it was handed a plan (it has run nothing)."""
        process, self.process = self.process, None
        if process is not None:
            _end(process)


def _end(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


__all__ = ["PLAN_ON_STDIN", "SpareWorker", "handover_line", "worker_command"]
