"""A function worked out in a forked copy of this process, beside what this process does.

A run's worker works out the agent's part of the provenance (its code's files read,
parsed and hashed: :func:`~tenxeval_tui.evaluation.provenance.agent_part`) before it
imports the agent, since the import may change ``sys.path``, which the walk reads. One
after the other, that walk delayed every first case (a tenth of a second for a package
of 60 files, issue #38). :meth:`Forked.start` runs it in a child made with ``os.fork``:
an exact copy of the process at that moment (its ``sys.path``, environment, modules,
current folder), so the answer is the one this process would have found; meanwhile this
process imports the agent on its own core. :meth:`Forked.result` waits for the answer.

Used only where a fork is safe: a POSIX system, and no other thread in this process
(a forked child has only the thread that forked, and another's locks would stay held).
The child dies with the process that forked it (a worker killed takes it along), resets
the signals a terminal's Ctrl-C sends to their default (it is never told to stop: it
dies), closes every descriptor but the standard ones and its pipe, and
ends with ``os._exit`` (no buffer of its parent's is flushed twice, no ``atexit`` runs).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable

from tenxeval_tui.runs.parent_watch import die_with


class ForkFailed(Exception):
    """The child gave no answer (it died, or its answer could not be pickled)."""


class Forked[T]:
    """``function()`` running in a forked child (see the module)."""

    def __init__(self, pid: int, read_fd: int) -> None:
        self._pid: int | None = pid
        self._read_fd = read_fd

    @classmethod
    def start(cls, function: Callable[[], T]) -> Forked[T] | None:
        """``function()`` started in a forked child; ``None`` when this process cannot fork
        safely (no ``os.fork``, another thread running): call it here instead."""
        if not hasattr(os, "fork") or threading.active_count() != 1:
            return None
        read_fd, write_fd = os.pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # the child: never returns
            _child(function, read_fd, write_fd, parent)
        os.close(write_fd)
        return cls(pid, read_fd)

    def result(self) -> T:
        """What ``function()`` returned (or raise what it raised); :class:`ForkFailed` when
        the child gave nothing. Waits for the child; call once."""
        chunks: list[bytes] = []
        try:
            while chunk := os.read(self._read_fd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(self._read_fd)
            self._reap()
        try:
            ok, value = pickle.loads(b"".join(chunks))
        except Exception as exc:  # nothing (the child died) or a broken pickle
            raise ForkFailed(f"the forked child gave no answer: {exc}") from None
        if not ok:
            raise value
        return value

    def _reap(self) -> None:
        pid, self._pid = self._pid, None
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _child(function: Callable[[], object], read_fd: int, write_fd: int, parent: int) -> None:
    code = 1
    try:
        die_with(parent)  # a worker killed (a usage error found later) takes it along
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)
        os.close(read_fd)
        close_inherited(write_fd)
        try:
            answer: tuple[bool, object] = (True, function())
        except Exception as exc:
            answer = (False, exc)
        try:
            data = pickle.dumps(answer)
        except Exception:  # an answer that does not pickle: the parent works it out itself
            data = b""
        with os.fdopen(write_fd, "wb") as out:
            out.write(data)
        code = 0
    finally:
        os._exit(code)


def close_inherited(*keep: int) -> None:
    """Close every descriptor but the standard ones and ``keep``: the parent's pipes (its
    protocol stream, its stdin) are not held open by a forked child. The open ones are listed
    where the system says (Linux); else the first few thousand are tried (a limit of
    descriptors can be in the billions)."""
    try:
        fds: Iterable[int] = [int(name) for name in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):
        fds = range(3, 4096)
    for fd in fds:
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


__all__ = ["ForkFailed", "Forked", "close_inherited"]
