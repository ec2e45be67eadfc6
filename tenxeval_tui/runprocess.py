"""The worker as seen from the UI: start it, read its lines into a :class:`LiveRun`, stop it.

Reading happens on the UI's event loop; :meth:`WorkerProcess.pump` gives the
loop back every few milliseconds, so a flood of events never holds up input.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from pathlib import Path

from tenxeval_tui.evaluation.observers import replay_json_lines
from tenxeval_tui.runstate import LiveRun
from tenxeval_tui.worker import RunRequest

# Longest stretch of line handling before the loop gets a turn (keeps input latency low).
SLICE_SECONDS = 0.008
# How long a cancelled worker may take to write its partial report before it is killed.
TERMINATE_GRACE = 3.0
LINE_LIMIT = 64 * 1024 * 1024


class WorkerProcess:
    """One worker child process and the :class:`LiveRun` it feeds."""

    def __init__(self, request: RunRequest, run: LiveRun, *, cwd: Path | None = None) -> None:
        self.request = request
        self.run = run
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self.cancelled = False

    async def start(self) -> None:
        """Start the child process (fresh imports of the agent every time)."""
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        if self.request.search_path is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(self.request.search_path), env.get("PYTHONPATH", "")) if p
            )
        command = self.request.command()
        self.process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd,
            env=env,
            limit=LINE_LIMIT,
            start_new_session=True,
        )

    async def pump(self) -> int:
        """Read every line until the worker exits; returns its exit status."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stderr_task = asyncio.create_task(self._read_stderr(process.stderr))
        stdout = process.stdout
        deadline = time.perf_counter() + SLICE_SECONDS
        while True:
            line = await stdout.readline()
            if not line:
                break
            self._handle(line)
            if time.perf_counter() >= deadline:
                await asyncio.sleep(0)
                deadline = time.perf_counter() + SLICE_SECONDS
        code = await process.wait()
        await stderr_task
        self.run.finish(code, cancelled=self.cancelled)
        return code

    def _handle(self, line: bytes) -> None:
        text = line.decode("utf-8", errors="replace")
        if replay_json_lines([text], self.run):
            return
        if text.startswith('{"type": "worker_'):
            with contextlib.suppress(ValueError):
                self.run.on_worker_line(json.loads(text))

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self.run.stderr_tail.append(line.decode("utf-8", errors="replace").rstrip("\n"))

    async def cancel(self) -> None:
        """Ask the worker to stop (SIGTERM: it writes a partial report); kill it if it hangs."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        self.cancelled = True
        self._signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), TERMINATE_GRACE)
        except TimeoutError:
            self._signal(signal.SIGKILL)

    def kill(self) -> None:
        """Kill the worker (and anything it started) at once."""
        self.cancelled = True
        self._signal(signal.SIGKILL)

    def _signal(self, sig: signal.Signals) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        # The worker leads its own process group: the agent's children go too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)

    @property
    def running(self) -> bool:
        """The child process has started and not exited."""
        return self.process is not None and self.process.returncode is None


__all__ = ["WorkerProcess"]
