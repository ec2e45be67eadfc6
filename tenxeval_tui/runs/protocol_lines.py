"""The stdout of a child process that speaks JSON lines to its parent.

The run worker (:mod:`tenxeval_tui.runs.worker`), each worker of a pool
(:mod:`tenxeval_tui.runs.pool_worker`) and the editor's chat
(:mod:`tenxeval_tui.runs.chat_worker`) write their protocol, one JSON object a line, on
what was file descriptor 1, while the agent they load may print anything. So each starts
with :func:`protocol_stream`, which keeps a private copy of fd 1 for the protocol and sends
fd 1 itself (and ``sys.stdout``) to stderr, then writes through :class:`ProtocolLines`.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO


class ProtocolLines:
    """Writes protocol lines to ``stream``, one flushed line at a time.

    When the reader is gone (the UI or ``run`` was killed: a broken pipe), lines are
    dropped and ``on_broken`` is called once, to stop work no one follows any more
    (a run's journal keeps what finished).
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.broken = False
        self.on_broken: Callable[[], None] | None = None

    def write(self, text: str) -> None:
        """Write ``text`` (whole lines, already encoded as JSON) and flush it."""
        if self.broken:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: written after a failed close
            self.broken = True
            if self.on_broken is not None:
                self.on_broken()

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
