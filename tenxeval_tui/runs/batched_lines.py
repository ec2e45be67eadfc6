"""The lines of a child's protocol pipe, read a batch at a time.

A worker flushes its ``case_start`` line as the case starts (a worker that dies mid-case
still names the case: the line is in the pipe, which outlives the writer). A reader that
waits on the pipe line by line is woken for each of them: at 10,000 zero-latency cases,
the wake-ups (and the writer's pipe writes that had a reader to wake) were a sixth of the
run's CPU. :class:`BatchedLines` reads what the pipe holds, hands its lines over, then
pauses :data:`PAUSE_SECONDS` before reading again, so a fast run's lines come a few
cases at a time; nothing is lost or reordered, and a line waits at most the pause. The
pause ends early when the writer has closed its end (its last lines are in): the end of
the stream is then read at once, not a pause after the last lines (a tenth of a 1-case
run's time after its worker had ended, issue #38).
"""

from __future__ import annotations

import contextlib
import select
import time
from collections import deque
from collections.abc import Iterator
from typing import IO

PAUSE_SECONDS = 0.01
"""The longest a line waits in the pipe once the reader has read all there was."""
CHUNK = 1 << 16
"""Bytes read at once (a pipe's capacity on Linux): a full read means more is waiting."""


class BatchedLines:
    """Each line of ``stream`` (with its ``\\n``; the last one as it ends), read as the
    module says (``stream.read1``, or ``read`` of an unbuffered stream, returns what is
    there, waiting only when nothing is).

    What was read and not yet handed over is kept here: iterating again (after a
    ``KeyboardInterrupt`` in the consumer) goes on from the next line.
    """

    def __init__(self, stream: IO[bytes], pause: float = PAUSE_SECONDS) -> None:
        self.stream = stream
        self.pause = pause
        self._lines: deque[bytes] = deque()
        self._tail: list[bytes] = []
        """The start of a line not ended yet (a long line comes in several reads)."""
        self._short = False
        """The last read took all there was: pause before the next."""
        # A buffered stream's read1, or an unbuffered one's read: what is there, at most n.
        self._read = stream.read1 if hasattr(stream, "read1") else stream.read
        self._hang_up = _hang_up_watch(stream)

    def __iter__(self) -> Iterator[bytes]:
        while True:
            while self._lines:
                yield self._lines.popleft()
            if self._short:
                self._short = False
                self._pause()  # the lines written meanwhile come in the next read
            chunk: bytes = self._read(CHUNK)
            if not chunk:
                break
            self._short = len(chunk) < CHUNK
            self._take(chunk)
        if self._tail:
            last, self._tail = b"".join(self._tail), []
            yield last

    def _pause(self) -> None:
        """Wait :attr:`pause`, or until the writer has closed its end of the pipe."""
        if self._hang_up is not None:
            with contextlib.suppress(OSError):
                self._hang_up.poll(self.pause * 1000)
                return
        time.sleep(self.pause)

    def _take(self, chunk: bytes) -> None:
        pieces = chunk.split(b"\n")
        if len(pieces) == 1:
            self._tail.append(chunk)
            return
        self._tail.append(pieces[0])
        self._lines.append(b"".join(self._tail) + b"\n")
        self._lines.extend(piece + b"\n" for piece in pieces[1:-1])
        self._tail = [pieces[-1]] if pieces[-1] else []


def _hang_up_watch(stream: IO[bytes]) -> select.poll | None:
    """A poll of ``stream``'s descriptor for its writer's hang-up alone (no event asked:
    ``poll`` always tells a hang-up; new data does not end the pause), or ``None`` where
    there is no such poll (no descriptor, no ``select.poll``)."""
    if not hasattr(select, "poll"):
        return None
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    watch = select.poll()
    watch.register(descriptor, 0)
    return watch


__all__ = ["PAUSE_SECONDS", "BatchedLines"]
