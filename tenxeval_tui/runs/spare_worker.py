"""A run's worker child started before its plan is known, so that its imports overlap the
parent's (issue #38).

``tenxeval-tui run`` needs a worker child (:mod:`tenxeval_tui.runs.worker`) for its cases,
and both processes import most of the core. Started one after the other, a 1-case run paid
for both imports in turn. :meth:`SpareWorker.start` starts the worker first (as
:func:`spare_command`: :mod:`.spare_start`, then the worker's ``-`` path, as ``python -m
tenxeval_tui.runs.worker -`` runs it): it imports what every run needs while the parent
reads its flags, settings and eval sets, then waits for one line on its stdin,
:func:`handover_line` (the plan, and the environment the worker would have been started
with: the judges' variables the settings set, the agent's folder on ``PYTHONPATH``).
:meth:`SpareWorker.hand` sends it; :meth:`SpareWorker.discard` ends a worker that was never
handed a plan (a usage error, nothing to run) at once. A worker whose stdin ends before a
plan exits 0 without a line. The console script forks that worker from its own process
instead of starting an interpreter (:mod:`.forked_spare`): the same child, sooner, with the
modules both import imported once.

Before the plan, as soon as the parent has read its settings, :meth:`SpareWorker.prepare`
may tell the worker the agent (:func:`prepare_line`), which it then imports while the
parent goes on with its checks (:mod:`~tenxeval_tui.runs.early_agent`). Only an agent that
is sure to run as told: named explicitly (``--agent``, ``TENXEVAL_AGENT``: an eval set's own
``metadata.agent`` does not replace it), no criteria modules to import before it, one
worker. The plan goes to a worker told only when it says the same
(:meth:`~tenxeval_tui.runs.plan.RunPlan.told_spare`, the same environment too); else the worker is ended and a fresh one runs the plan.

Only the standard library is imported here: the worker is started before anything else.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.runs.parent_watch import PARENT_PID_ENV

PLAN_ON_STDIN = "-"
"""The worker's argument that says its plan comes as the first line of its stdin."""

PREPARE_KEY = "prepare"
"""The key of the line that tells a spare worker its agent before its plan."""

GIT_PLACES_KEY = "git_places"
"""The key of the prepare line's eval set paths as the run's command line named them: the
worker starts their git state there (the provenance's, :func:`~tenxeval_tui.evaluation.provenance.git.start_git_state`),
not once its plan comes. A hint: the plan's files say what the run records."""


def worker_environment(search_path: Path | None) -> dict[str, str]:
    """A worker's environment: this one, unbuffered, ``search_path`` first on the path,
    this process named as its parent (see :mod:`~tenxeval_tui.runs.parent_watch`)."""
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env[PARENT_PID_ENV] = str(os.getpid())
    if search_path is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(search_path), env.get("PYTHONPATH", "")) if p
        )
    return env


def told(
    agent: str, search_path: Path, verbose: bool | None, log_level: str | None
) -> dict[str, Any]:
    """What :meth:`SpareWorker.prepare` tells a worker: the agent spec, the folder it is
    imported from, the logging its plan will ask for."""
    return {
        "agent": agent,
        "search_path": str(search_path),
        "verbose": verbose,
        "log_level": log_level,
    }


def prepare_line(
    fields: Mapping[str, Any], env: Mapping[str, str], git_places: Sequence[str] = ()
) -> bytes:
    """The line that tells a spare worker its agent (``fields``: :func:`told`) and the
    environment to take first; ``git_places``: the eval set paths whose git state it may
    start on (:data:`GIT_PLACES_KEY`)."""
    line: dict[str, Any] = {PREPARE_KEY: dict(fields), "env": dict(env)}
    if git_places:
        line[GIT_PLACES_KEY] = list(git_places)
    return (json.dumps(line) + "\n").encode("utf-8")


def worker_command(plan_argument: str) -> list[str]:
    """The command line of a worker child given ``plan_argument`` (the plan's JSON,
    ``@FILE`` or :data:`PLAN_ON_STDIN`)."""
    return [sys.executable, "-m", "tenxeval_tui.runs.worker", plan_argument]


def spare_command() -> list[str]:
    """The command line of a spare worker: :mod:`.spare_start`, which reads the line
    telling its agent between its imports, then runs as ``worker -``."""
    return [sys.executable, "-m", "tenxeval_tui.runs.spare_start"]


def handover_line(plan_json: str, env: Mapping[str, str]) -> bytes:
    """The line a spare worker reads: the plan's JSON and its environment."""
    return (json.dumps({"plan": plan_json, "env": dict(env)}) + "\n").encode("utf-8")


class SpareWorker:
    """One worker child waiting for its plan (see the module)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process: subprocess.Popen[bytes] | None = process
        self.told: tuple[dict[str, Any], dict[str, str]] | None = None
        """What the worker was told (:meth:`prepare`) and the environment it took."""

    @classmethod
    def start(cls) -> SpareWorker | None:
        """A worker started now, with this process's environment (unbuffered, this process
        named as its parent); ``None`` when it cannot be started (the run starts one later)."""
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        env[PARENT_PID_ENV] = str(os.getpid())
        try:
            process = subprocess.Popen(
                spare_command(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
        except OSError:
            return None
        return cls(process)

    def prepare(
        self, fields: Mapping[str, Any], search_path: Path, git_places: Sequence[str] = ()
    ) -> None:
        """Tell the worker its agent (``fields``: :func:`told`), to import it now with the
        environment of a worker of ``search_path``, and the eval set paths whose git state it
        may start on; nothing when it cannot be told."""
        if self.process is None or self.told is not None:
            return
        env = worker_environment(search_path)
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(prepare_line(fields, env, git_places))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return  # gone: the plan finds it so and starts another
        self.told = (dict(fields), env)

    def hand(
        self, plan_json: str, env: Mapping[str, str], told: Mapping[str, Any] | None = None
    ) -> subprocess.Popen[bytes] | None:
        """The worker, given the plan ``plan_json`` to run with ``env`` (``told``: what a
        worker of that plan is told of its agent, ``RunPlan.told_spare``); ``None`` when it was
        handed one already, is gone, or was told otherwise (it is ended: start another).
        Its stdin is closed after the plan: ``tenxeval-tui run`` sends no command."""
        process, self.process = self.process, None
        if process is None:
            return None
        if self.told is not None and self.told != (dict(told or {}), dict(env)):
            _end(process)  # its agent was imported otherwise than the plan says
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


__all__ = [
    "PLAN_ON_STDIN",
    "PREPARE_KEY",
    "SpareWorker",
    "handover_line",
    "prepare_line",
    "spare_command",
    "told",
    "worker_command",
    "worker_environment",
]
