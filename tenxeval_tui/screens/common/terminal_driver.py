"""The terminal driver of the workbench: Textual's own, plus noticing that the terminal went away.

Textual 8's ``LinuxDriver`` reads its input in a loop that, once the terminal is hung
up (a tmux session killed, an ssh connection dropped), finds it readable forever and
reads nothing from it: the process stays behind and spins a core (upstream:
Textualize/textual#6690). It only ends when a SIGHUP kills it first, and a process
under ``make`` (``make demo``) gets none: the session leader, make, does.

:class:`TerminalWatchDriver` watches for the hang-up itself, with no periodic wake: a
thread waits in ``poll`` for nothing but the hang-up of the terminal's input, and a
SIGHUP handler catches the signal when it does come. Either posts
:class:`TerminalGone` to the app, which keeps what would be lost and exits. Output to
the gone terminal fails with EIO: it is dropped, as Textual's writer thread would
otherwise die of it and leave the app blocked at exit on its full queue (seen: a
workbench that got the SIGHUP stayed behind, asleep, for good).
"""

from __future__ import annotations

import errno
import os
import select
import signal
import threading
from contextlib import suppress
from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


class TerminalGone(Message):
    """The app's terminal went away (hung up, or a SIGHUP): nobody sees or types any more."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
        """What showed it: ``"SIGHUP"``, ``"hang-up"``, ``"input error"`` or
        ``"output error"``."""


class _TerminalOutput:
    """The terminal's output file for Textual's writer thread; once the terminal is gone
    (a write fails with EIO) what is written is dropped."""

    def __init__(self, file: IO[str], gone: Any) -> None:
        self._file = file
        self._gone = gone
        self._dropping = False

    def write(self, text: str) -> None:
        if not self._dropping:
            self._guarded(self._file.write, text)

    def flush(self) -> None:
        if not self._dropping:
            self._guarded(self._file.flush)

    def fileno(self) -> int:
        return self._file.fileno()

    def _guarded(self, call: Any, *args: str) -> None:
        try:
            call(*args)
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            self._dropping = True
            self._gone("output error")


class TerminalWatchDriver(LinuxDriver):
    """Textual's Linux driver, telling the app (:class:`TerminalGone`) when its terminal
    goes away instead of reading a hung-up terminal forever."""

    _watch: threading.Thread | None = None
    _wake: tuple[int, int] | None = None
    _gone_told = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is not None:
            self._file = _TerminalOutput(self._file, self._gone_from_thread)  # type: ignore[assignment]

    def start_application_mode(self) -> None:
        super().start_application_mode()
        self._loop.add_signal_handler(signal.SIGHUP, self._terminal_gone, "SIGHUP")
        self._wake = os.pipe()
        self._watch = threading.Thread(
            target=self._wait_for_hang_up,
            args=(self.fileno, self._wake[0]),
            name="terminal hang-up watch",
            daemon=True,
        )
        self._watch.start()

    def stop_application_mode(self) -> None:
        self._loop.remove_signal_handler(signal.SIGHUP)
        if self._wake is not None:
            wake_read, wake_write = self._wake
            os.write(wake_write, b"x")
            if self._watch is not None:
                self._watch.join()
            os.close(wake_read)
            os.close(wake_write)
            self._wake = self._watch = None
        super().stop_application_mode()

    def run_input_thread(self) -> None:
        """Textual's input loop; a read failing because the terminal is gone (EIO) is
        the terminal gone, not a crash to show in a terminal nobody sees."""
        try:
            super().run_input_thread()
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            self._gone_from_thread("input error")

    def _wait_for_hang_up(self, terminal: int, wake: int) -> None:
        # Asked for no event: poll still reports a hang-up (or an error) of the terminal,
        # and nothing else wakes it but the pipe written when the app leaves the terminal.
        poller = select.poll()
        poller.register(terminal, 0)
        poller.register(wake, select.POLLIN)
        while True:
            events = dict(poller.poll())
            if wake in events:
                return
            if events.get(terminal, 0) & _GONE:
                self._gone_from_thread("hang-up")
                return

    def _gone_from_thread(self, reason: str) -> None:
        with suppress(RuntimeError):  # the loop already closed: the app has ended
            self._loop.call_soon_threadsafe(self._terminal_gone, reason)

    def _terminal_gone(self, reason: str) -> None:
        if not self._gone_told:
            self._gone_told = True
            with suppress(RuntimeError):  # the app already closing
                self._app.post_message(TerminalGone(reason))


__all__ = ["TerminalGone", "TerminalWatchDriver"]
