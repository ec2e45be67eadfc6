"""A terminal the bench owns: a program on a pty, its output read as it comes and drawn
by pyte, so the time from writing a key's bytes to the screen showing its effect is read
from the output stream itself (no ``tmux capture-pane`` polling between the two).

A thread does nothing but read the pty and note when each chunk arrived; the bench's own
thread draws the chunks and checks what the screen shows, so the time a chunk is drawn
(pyte is pure Python) never delays the time it is said to have arrived.
"""

from __future__ import annotations

import fcntl
import os
import queue
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import pyte

Check = Callable[["Screen"], bool]


class Timeout(Exception):
    """The screen did not show what was waited for in time."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its character and colours (pyte's names: ``default`` or a hex colour)."""

    char: str
    fg: str
    bg: str
    reverse: bool


class Screen:
    """What the terminal shows now: text lines and each cell's colours."""

    def __init__(self, screen: pyte.Screen) -> None:
        self._screen = screen

    @property
    def lines(self) -> list[str]:
        """Every line's text."""
        return list(self._screen.display)

    def text(self) -> str:
        """The whole screen as text, one line a row."""
        return "\n".join(self._screen.display)

    def find(self, needle: str, columns: tuple[int, int] | None = None) -> tuple[int, int] | None:
        """(row, column) of the first place showing ``needle`` (within ``columns``, a
        [start, end) range, if given), or ``None``."""
        start, end = columns or (0, self._screen.columns)
        for row, line in enumerate(self._screen.display):
            column = line.find(needle, start, end)
            if column >= 0:
                return row, column
        return None

    def line(self, row: int, columns: tuple[int, int] | None = None) -> str:
        """The text of ``row`` (within ``columns``, if given)."""
        start, end = columns or (0, self._screen.columns)
        return self._screen.display[row][start:end]

    def cell(self, row: int, column: int) -> Cell:
        """The cell at (row, column)."""
        char = self._screen.buffer[row][column]
        return Cell(char.data, char.fg, char.bg, char.reverse)


class Terminal:
    """``argv`` running on a pty of ``columns`` x ``rows``, its output drawn by pyte."""

    def __init__(
        self,
        argv: list[str],
        *,
        columns: int = 120,
        rows: int = 40,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.columns, self.rows = columns, rows
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environment = {**(env if env is not None else os.environ), "TERM": "xterm-256color"}
        environment.pop("COLUMNS", None)
        environment.pop("LINES", None)
        self.process = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=environment,
            cwd=cwd,
            start_new_session=True,  # the pty is its controlling terminal
            preexec_fn=_take_terminal,
        )
        os.close(slave)
        self._master = master
        self._pyte = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self._pyte)
        self.screen = Screen(self._pyte)
        self._chunks: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.bytes_read = 0
        self._reader = threading.Thread(target=self._read, name="pty-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except OSError:  # the program ended: the pty closed
                data = b""
            self._chunks.put((time.perf_counter(), data))
            if not data:
                return

    def write(self, data: bytes) -> float:
        """Type ``data`` (a key's bytes); when it was written (``time.perf_counter``)."""
        written = time.perf_counter()
        os.write(self._master, data)
        return written

    def drain(self) -> float | None:
        """Draw what arrived so far; when the last chunk drawn arrived (``None``: none)."""
        arrived = None
        while True:
            try:
                arrived, data = self._chunks.get_nowait()
            except queue.Empty:
                return arrived
            self._draw(data)

    def _draw(self, data: bytes) -> None:
        self.bytes_read += len(data)
        self._stream.feed(data)

    def wait_for(self, check: Check, timeout: float = 30.0, what: str = "") -> float:
        """Draw the output chunk by chunk until ``check(screen)`` holds; when the chunk that
        made it hold arrived. Holding already (before any new output) counts as now."""
        if check(self.screen):
            return time.perf_counter()
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Timeout(
                    f"the screen did not show {what or check} in {timeout:.0f} s; it shows:\n"
                    + self.screen.text()
                )
            try:
                arrived, data = self._chunks.get(timeout=remaining)
            except queue.Empty:
                continue
            if not data:
                raise Timeout(f"the program ended before the screen showed {what or check}")
            self._draw(data)
            # Later chunks already here are part of the same frame: a check that needs the
            # whole frame sees it.
            if check(self.screen):
                return arrived

    def quiet(self, seconds: float, at_most: float = 3.0) -> None:
        """Draw the output until none arrived for ``seconds`` (or ``at_most`` seconds
        passed: a blinking cursor never stops drawing)."""
        deadline = time.monotonic() + at_most
        while time.monotonic() < deadline:
            try:
                _, data = self._chunks.get(timeout=seconds)
            except queue.Empty:
                return
            if not data:
                return
            self._draw(data)

    def alive(self) -> bool:
        """Whether the program still runs."""
        return self.process.poll() is None

    def close(self) -> None:
        """End the program (its whole process group) and the pty."""
        if self.alive():
            with _suppress_missing():
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with _suppress_missing():
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        os.close(self._master)
        self._reader.join(timeout=2)


def _take_terminal() -> None:
    """In the child: make the pty (its stdin) the controlling terminal of its session."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class _suppress_missing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, *_: object) -> bool:
        return kind is ProcessLookupError


def python_argv(*args: str) -> list[str]:
    """This interpreter running ``args``."""
    return [sys.executable, *args]
