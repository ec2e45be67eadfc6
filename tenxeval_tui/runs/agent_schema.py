"""An agent's schema (tools, nodes) read in a child process, and cached per agent and code.

The child (:mod:`.describe_agent`) imports the agent and prints one JSON line:
``{"schema": ..., "files": {path: mtime}}`` (the files of every module it imported from
its folder), or ``{"error": message}``. The agent never runs in the caller's process, so
an agent that crashes or hangs on import cannot take the editor down, and every read
imports its code afresh.

:class:`SchemaCache` keeps each agent's schema until one of those files changes, and
from one session to the next in the cache folder (:mod:`.schema_store`). No UI import.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.targets.schema import AgentSchema
from tenxeval_tui.runs import schema_store
from tenxeval_tui.runs.schema_store import SchemaStore

TIMEOUT = 60.0
"""Longest wait for an agent's import (seconds)."""
ERROR_RETRY = 10.0
"""How long an agent that could not be read is not read again (seconds): its files are
not known, and showing cases one after the other must not start a process each."""


@dataclass(frozen=True)
class SchemaResult:
    """The schema of an agent, or why it could not be read (``schema`` is then ``None``)."""

    schema: AgentSchema | None
    error: str | None = None
    files: dict[str, float] = field(default_factory=dict)
    """The agent's source files and their mtimes when it was read."""
    read_at: float = field(default_factory=time.monotonic)

    def fresh(self) -> bool:
        """Whether none of the agent's files changed (or went) since it was read."""
        for path, mtime in self.files.items():
            try:
                if os.stat(path).st_mtime != mtime:
                    return False
            except OSError:
                return False
        return True


def command(spec: str, folder: Path) -> list[str]:
    """The child's command line."""
    return [sys.executable, "-m", "tenxeval_tui.runs.describe_agent", spec, str(folder)]


def parse_output(stdout: str, stderr: str = "", code: int | None = 0) -> SchemaResult:
    """The result the child printed (its last JSON line), or an error saying what happened."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except ValueError:
                break
            if "error" in data:
                return SchemaResult(None, str(data["error"]))
            files = {str(k): float(v) for k, v in (data.get("files") or {}).items()}
            return SchemaResult(AgentSchema.model_validate(data["schema"]), None, files)
    tail = stderr.strip().splitlines()[-3:]
    return SchemaResult(None, f"the agent's process ended ({code}): " + " ".join(tail))


def read_schema(spec: str, folder: Path) -> SchemaResult:
    """The schema of ``spec``, read in a child process (blocking; for the CLI)."""
    try:
        done = subprocess.run(
            command(spec, folder),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=folder,
            env=_env(folder),
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return SchemaResult(None, f"agent {spec!r}: importing it took over {TIMEOUT:g} s")
    return parse_output(done.stdout, done.stderr, done.returncode)


async def read_schema_async(spec: str, folder: Path) -> SchemaResult:
    """:func:`read_schema` on an event loop (the editor's)."""
    process = await asyncio.create_subprocess_exec(
        *command(spec, folder),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=folder,
        env=_env(folder),
        start_new_session=True,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), TIMEOUT)
    except TimeoutError:
        await _end(process)
        return SchemaResult(None, f"agent {spec!r}: importing it took over {TIMEOUT:g} s")
    except asyncio.CancelledError:  # the editor went: the child goes too
        await _end(process)
        raise
    return parse_output(
        out.decode(errors="replace"), err.decode(errors="replace"), process.returncode
    )


async def _end(process: asyncio.subprocess.Process) -> None:
    """Kill the child and take what is left in its pipes: reaped and closed, nothing of
    it outlives the caller's event loop."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    await process.communicate()


def _env(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH", "")) if p)
    return env


class SchemaCache:
    """Agent schemas by ``(spec, folder)``, each kept until the agent's code changes; a
    schema not read in this session is looked for in ``store`` (default: the cache folder's,
    :func:`~.schema_store.default_store`) before a child process is started, and one read
    is kept there."""

    def __init__(self, store: SchemaStore | None = None) -> None:
        self._store = store
        self._results: dict[tuple[str, Path], SchemaResult] = {}
        self._reading: dict[tuple[str, Path], asyncio.Task[SchemaResult]] = {}
        """Reads in flight: a caller that gives up (a newer request) does not cut one short
        (its child would be left half read); the next caller waits for it instead."""
        self.reads = 0
        """How many times a child process was started (the misses of both caches)."""

    def cached(self, spec: str, folder: Path) -> SchemaResult | None:
        """The cached result when the agent's files did not change since (a failure: for
        :data:`ERROR_RETRY` seconds); else ``None``."""
        found = self._results.get((spec, folder))
        if found is None:
            return None
        if found.schema is None:
            return found if time.monotonic() - found.read_at < ERROR_RETRY else None
        return found if found.files and found.fresh() else None

    async def get(self, spec: str, folder: Path) -> SchemaResult:
        """The schema of ``spec`` (cached, or read in a child process)."""
        found = self.cached(spec, folder)
        if found is not None:
            return found
        key = (spec, folder)
        task = self._reading.get(key)
        if task is None:
            task = self._reading[key] = asyncio.create_task(self._read(spec, folder))
            task.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(task)

    @property
    def store(self) -> SchemaStore:
        """Where schemas are kept from one session to the next."""
        if self._store is None:
            self._store = schema_store.default_store()
        return self._store

    async def _read(self, spec: str, folder: Path) -> SchemaResult:
        """From the store (its file read and the agent's files hashed in a thread: the
        caller's loop is the editor's), else in a child process, then kept in the store."""
        store = self.store
        kept = await asyncio.to_thread(store.find, spec, folder)
        if kept is not None:
            return SchemaResult(kept[0], None, kept[1])
        self.reads += 1
        result = await read_schema_async(spec, folder)
        if result.schema is not None and result.files:
            await asyncio.to_thread(store.keep, spec, folder, result.schema, result.files)
        return result

    def _done(self, key: tuple[str, Path], task: asyncio.Task[SchemaResult]) -> None:
        if self._reading.get(key) is task:
            del self._reading[key]
        if not task.cancelled() and task.exception() is None:
            self._results[key] = task.result()

    async def close(self) -> None:
        """Stop the reads in flight (their children killed and reaped)."""
        tasks = list(self._reading.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
