"""The editor's side of a chat with the agent: the child (:mod:`.chat_worker`), its lines.

:class:`ChatProcess` starts the child, sends the user's messages and hands back each line
it writes, decoded (:class:`ChatLine`). It reads on the caller's event loop; the agent
runs in the child, so an agent that crashes, exits or hangs ends the chat, not the
editor. No UI import.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.events import EventModel

LINE_LIMIT = 64 * 1024 * 1024

CHAT_WORKER = "tenxeval_tui.runs.chat_worker"
"""The child's module (not imported here: it imports the worker's, which the editor
does not need until a chat starts)."""


def command(spec: str, folder: Path) -> list[str]:
    """The command line of a chat with ``spec``."""
    return [sys.executable, "-m", CHAT_WORKER, spec, str(folder)]


@dataclass(frozen=True)
class ChatLine:
    """One line of the chat child: ``kind`` is its ``type`` (``chat_ready``, ``chat_error``,
    ``event``, ``turn_end``), ``data`` the line; ``event`` the decoded event of an
    ``event`` line."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    event: EventModel | None = None


def decode(raw: bytes) -> ChatLine | None:
    """The :class:`ChatLine` of one line of the child (``None`` for noise)."""
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return None
    if data["type"] == "event":
        try:
            return ChatLine("event", data, EventModel.from_dict(data["event"]))
        except (ValueError, KeyError, TypeError):
            return None
    return ChatLine(data["type"], data)


class ChatProcess:
    """One conversation with the agent ``spec`` (imported from ``folder``) in a child."""

    def __init__(self, spec: str, folder: Path) -> None:
        self.spec = spec
        self.folder = folder
        self.process: asyncio.subprocess.Process | None = None
        self.stderr_tail: list[str] = []
        """The last lines the agent printed (shown when the chat ends on its own)."""
        self._stderr_task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Future[None] | None = None

    async def start(self) -> None:
        """Start the child (the agent is imported afresh)."""
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(self.folder), env.get("PYTHONPATH", "")) if p
        )
        self.process = await asyncio.create_subprocess_exec(
            *command(self.spec, self.folder),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.folder,
            env=env,
            limit=LINE_LIMIT,
            start_new_session=True,
        )

    async def say(self, text: str) -> bool:
        """Send the user's next message; ``False`` when the chat has ended."""
        process = self.process
        if process is None or process.stdin is None or process.returncode is not None:
            return False
        try:
            process.stdin.write((json.dumps({"text": text}) + "\n").encode())
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True

    async def lines(self) -> AsyncIterator[ChatLine]:
        """Every line of the child until it exits (then its stderr is in ``stderr_tail``)."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stderr_task = self._stderr_task = asyncio.create_task(self._read_stderr(process.stderr))
        while raw := await process.stdout.readline():
            line = decode(raw)
            if line is not None:
                yield line
        await process.wait()
        await stderr_task

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        while raw := await stream.readline():
            self.stderr_tail = [*self.stderr_tail[-19:], raw.decode(errors="replace").rstrip()]

    @property
    def returncode(self) -> int | None:
        """The child's exit status (``None`` while it runs)."""
        return None if self.process is None else self.process.returncode

    async def stop(self) -> None:
        """End the chat now; the child is reaped and its pipes closed (nothing of it
        outlives the caller's event loop). Callers at once share one stop."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        self.kill()
        if self._stderr_task is not None:
            self._stderr_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._stderr_task
        if self.process is not None:
            with contextlib.suppress(RuntimeError, OSError):  # a read was cut short
                await self.process.communicate()

    def kill(self) -> None:
        """End the chat now (the child and whatever the agent started)."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


__all__ = ["ChatLine", "ChatProcess", "decode"]
