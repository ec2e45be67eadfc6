"""The stdout of a child process that speaks JSON lines to its parent.

The run worker (:mod:`tenxeval_tui.runs.worker`), each worker of a pool
(:mod:`tenxeval_tui.runs.pool_worker`) and the editor's chat
(:mod:`tenxeval_tui.runs.chat_worker`) write their protocol, one JSON object a line, on
what was file descriptor 1, while the agent they load may print anything. So each starts
with :func:`protocol_stream`, which keeps a private copy of fd 1 for the protocol and sends
fd 1 itself (and ``sys.stdout``) to stderr, then writes through :class:`ProtocolLines`.

Lines are buffered, not flushed one by one: a flush is a write to the pipe and a wake-up of
the reader (a millisecond on a busy machine), and the agent's event lines, several a case,
were most of them. A line the reader must have at once is flushed as it is written, with
what was buffered before it (the order holds); the others wait for it, or at most
:data:`FLUSH_SECONDS`: a zero-latency run flushes once a case.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

FLUSH_SECONDS = 0.05
"""The longest a buffered line of the live view waits before it is flushed."""

DEFERRED_PREFIXES = (
    '{"type": "event"',
    '{"type": "repeat_start"',
    '{"type": "repeat_end"',
)
"""Lines that may wait: the live view's. Every other line is flushed as it is written:
``case_start`` above all (a worker that dies mid-case still names the case it was
running), acknowledgements, plans, errors, the reports written."""
RESULT_PREFIX = '{"type": "case_end"'
"""A finished case's result: it may wait too when the process keeps a journal, which has
the case already (``results_wait``); the next case's start or the timer flushes it."""


class ProtocolLines:
    """Writes protocol lines to ``stream`` (see the module's doc for when they are flushed).

    When the reader is gone (the UI or ``run`` was killed: a broken pipe), lines are
    dropped and ``on_broken`` is called once, to stop work no one follows any more
    (a run's journal keeps what finished). Safe to call from several threads.
    """

    def __init__(
        self, stream: TextIO, *, flush_seconds: float = FLUSH_SECONDS, results_wait: bool = False
    ) -> None:
        self.stream = stream
        self.results_wait = results_wait
        """``case_end`` lines may wait (see :data:`RESULT_PREFIX`)."""
        self.broken = False
        self.on_broken: Callable[[], None] | None = None
        self.flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._pending = threading.Event()
        self._timer: threading.Thread | None = None

    def write(self, text: str) -> None:
        """Write ``text`` (whole lines, already encoded as JSON); flushed at once unless it
        may wait (:data:`DEFERRED_PREFIXES`, :data:`RESULT_PREFIX`)."""
        if self.broken:
            return
        deferred = text.startswith(DEFERRED_PREFIXES) or (
            self.results_wait and text.startswith(RESULT_PREFIX)
        )
        with self._lock:
            try:
                self.stream.write(text)
                if deferred:
                    self._pending.set()
                else:
                    self._pending.clear()
                    self.stream.flush()
            except (BrokenPipeError, ValueError):  # ValueError: written after a failed close
                self._broke()
                return
        if deferred and self._timer is None:
            self._start_timer()

    def flush(self) -> None:
        """Flush what is buffered now."""
        with self._lock:
            self._pending.clear()
            try:
                self.stream.flush()
            except (BrokenPipeError, ValueError):
                self._broke()

    def _broke(self) -> None:
        if self.broken:
            return
        self.broken = True
        if self.on_broken is not None:
            self.on_broken()

    def _start_timer(self) -> None:
        with self._lock:
            if self._timer is not None:
                return
            self._timer = threading.Thread(target=self._flush_later, name="protocol-flush")
            self._timer.daemon = True  # a worker ends with os._exit; the last lines are flushed
            self._timer.start()

    def _flush_later(self) -> None:
        while not self.broken:
            self._pending.wait()
            time.sleep(self.flush_seconds)
            if self._pending.is_set():
                self.flush()

    def emit(self, data: dict[str, Any]) -> None:
        """Write ``data`` as one JSON line (what JSON cannot hold is written as its text)."""
        self.write(json.dumps(data, default=str) + "\n")


def protocol_stream() -> TextIO:
    """A private copy of fd 1 for the protocol; fd 1 itself (and ``sys.stdout``) become
    stderr, so the prints of the code the process runs never mix with the protocol."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private, "w", encoding="utf-8", buffering=1 << 16)


__all__ = ["ProtocolLines", "protocol_stream"]
