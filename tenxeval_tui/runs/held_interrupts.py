"""Ctrl-C and SIGTERM held back while a worker child is being set up.

``run``'s parent turns SIGTERM into ``KeyboardInterrupt`` as Ctrl-C is; the loop following
the child's lines catches it, stops the child and reports the finished cases. Between the
child's start and that loop (a spare worker runs cases from the moment it is handed its
plan) an interrupt would end the command with nothing reported: held here, it is told to
the loop instead (:attr:`HeldInterrupts.pending`).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType
from typing import Any

HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class HeldInterrupts:
    """A context in which :data:`HELD_SIGNALS` with a Python handler are noted, not handled.

    Signals left to the system (ignored, or the default of ending the process) stay so; off
    the main thread, where no handler can be set and no ``KeyboardInterrupt`` is raised,
    nothing changes. The handlers are put back on leaving.
    """

    def __init__(self) -> None:
        self.pending = False
        self._previous: dict[int, Any] = {}

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.pending = True

    def __enter__(self) -> HeldInterrupts:
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum in HELD_SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler):
                self._previous[signum] = handler
                signal.signal(signum, self._note)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()


__all__ = ["HELD_SIGNALS", "HeldInterrupts"]
