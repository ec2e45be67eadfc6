"""The run's spare worker forked from ``tenxeval-tui run`` itself (issue #38).

A spare worker (:mod:`.spare_worker`) started with ``subprocess.Popen`` spent ~25 ms
starting an interpreter of its own (``site``, the editable install's finder) before its
first import, then imported what the parent was importing too (pydantic, the core's models
of an eval set, its config and its results: a sixth of a second of CPU in each process);
it is CPU-bound from its start to its first case. When ``run``'s flags want a spare worker
(``cli.main._early_run``), :func:`start_forked` instead imports those shared modules
(:data:`~.spare_start.SHARED_STEPS`) here, once for both, and forks this process, its
interpreter up: the child becomes what ``python -m tenxeval_tui.runs.spare_start`` would
have been (:func:`_become_spare`): fds 0/1/2 pipes to the parent, ``sys.std*`` as
``PYTHONUNBUFFERED=1`` makes them, the worker's environment, signal handlers as a fresh
interpreter's, ``sys.argv``, ``sys.path[0]`` and ``__main__`` as ``-m`` sets them (an
agent's ``multiprocessing`` sees what it saw), every other fd closed (as ``close_fds``),
killed with its parent (:func:`~.parent_watch.die_with`), ended by ``os._exit``.

The parent side is :class:`ForkedWorker`, a ``subprocess.Popen`` whose child is forked
rather than executed: the run uses it as any worker child (its pipes, ``wait``, ``kill``,
``returncode``) in a :class:`~.spare_worker.SpareWorker`. Only the console script forks
(:func:`allow_fork`, as it starts, on a fresh process): ``main()`` called in a process that
has run other code (a test, a script, the workbench's threads) starts its worker with
``Popen``, and so does a process where forking is not safe (:func:`can_fork`).

Only the standard library is imported at module level: it runs before anything else.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from tenxeval_tui.runs.parent_watch import PARENT_PID_ENV, die_with
from tenxeval_tui.runs.spare_worker import spare_command

if TYPE_CHECKING:
    from tenxeval_tui.runs.spare_worker import SpareWorker

SPARE_MODULE = "tenxeval_tui.runs.spare_start"
"""The module the forked child runs as ``__main__``, as ``spare_command()`` would."""

_allowed = False


def allow_fork() -> None:
    """Let :func:`start_forked` fork this process: the console script's, as it starts."""
    global _allowed
    _allowed = True


def can_fork() -> bool:
    """Whether this process may fork a worker that runs on in Python: Linux or macOS,
    no thread but this one (a lock held by another would stay held in the child), and
    fds 0-2 open (the child's pipes are moved onto them)."""
    if not hasattr(os, "fork") or not sys.platform.startswith(("linux", "darwin")):
        return False
    if threading.active_count() != 1:
        return False
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return False
    return True


def start_forked() -> SpareWorker | None:
    """A spare worker forked from this process, once :func:`allow_fork` said so (once) and
    when it is safe (:func:`can_fork`), the modules both processes import imported first;
    ``None`` otherwise, or when it could not be started (the caller starts one with
    ``Popen``)."""
    global _allowed
    allowed, _allowed = _allowed, False
    if not allowed or not can_fork():
        return None
    import importlib

    from tenxeval_tui.evaluation.long_lived import long_lived_imports
    from tenxeval_tui.evaluation.pydantic_plugins import known_pydantic_plugins
    from tenxeval_tui.runs.spare_start import SHARED_STEPS
    from tenxeval_tui.runs.spare_worker import SpareWorker, worker_environment

    try:
        # as the worker imports them: they live as long as both; the first models without
        # pydantic's plugin lookup when the cache folder knows its answer
        with long_lived_imports(), known_pydantic_plugins():
            for name in SHARED_STEPS:
                importlib.import_module(name)
    except ImportError:
        return None  # the worker started afresh fails on it and says so, as it did
    try:
        return SpareWorker(ForkedWorker(worker_environment(None)))
    except OSError:
        return None


class ForkedWorker(subprocess.Popen[bytes]):
    """A spare worker child whose process is this one forked (see the module), with the
    interface of any ``Popen`` with three pipes: ``Popen`` makes the pipes and their file
    objects, waits, kills and reaps; only the start of the child is our own
    (:meth:`_execute_child`). A subclass rather than a look-alike: the run takes a
    ``Popen[bytes]`` (``SpareWorker.hand``), and its waiting and reaping are the standard ones."""

    def __init__(self, env: Mapping[str, str]) -> None:
        super().__init__(
            spare_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )

    def _execute_child(  # Popen's own (private): its arguments in their 3.12 order
        self,
        args: Any,
        executable: Any,
        preexec_fn: Any,
        close_fds: Any,
        pass_fds: Any,
        cwd: Any,
        env: Mapping[str, str],
        startupinfo: Any,
        creationflags: Any,
        shell: Any,
        p2cread: int,
        p2cwrite: int,
        c2pread: int,
        c2pwrite: int,
        errread: int,
        errwrite: int,
        *rest: Any,
    ) -> None:
        """Fork; the child becomes the worker (it never returns here), the parent keeps
        the pid and closes the child's ends of the pipes, as ``Popen`` does."""
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here written twice
            with contextlib.suppress(AttributeError, OSError, ValueError):
                stream.flush()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            _become_spare(parent, (p2cread, c2pwrite, errwrite), env)
        self.pid = pid
        self._child_created = True  # Popen's: reaped, not warned about, once it ends
        for fd in (p2cread, c2pwrite, errwrite):
            os.close(fd)
        self._closed_child_pipe_fds = True  # Popen's: not closed again on an error


def _become_spare(parent: int, stdio: tuple[int, int, int], env: Mapping[str, str]) -> NoReturn:
    """In the forked child: become the spare worker, then end (never returns)."""
    try:
        for target, fd in enumerate(stdio):
            os.dup2(fd, target)
        from tenxeval_tui.runs.forked import close_inherited  # the worker's, not the run's

        close_inherited()  # as Popen's close_fds: the parent's ends of the pipes too
        die_with(parent)
        _fresh_signals()
        _fresh_stdio()
        _take_environment(env)
        main = _run_as_main_module()
        from tenxeval_tui.runs.child_setup import run_then_exit

        run_then_exit(main)  # ends the process
    except BaseException:  # never back into the parent's code, whatever happened
        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(1)


def _fresh_signals() -> None:
    """The signal handlers a fresh interpreter has: a handler set in Python is reset to
    the default, as ``exec`` does (SIGINT keeps Python's own, an ignored signal stays
    ignored); no wakeup fd."""
    for number in signal.valid_signals():
        try:
            handler = signal.getsignal(number)
            if callable(handler) and handler is not signal.default_int_handler:
                signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            continue
    signal.set_wakeup_fd(-1)


def _fresh_stdio() -> None:
    """``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` (and their ``__std*__``) over fds
    0-2 as an interpreter started with ``PYTHONUNBUFFERED=1`` makes them: stdin's bytes
    buffered, stdout's and stderr's not, all three written through and none line-buffered
    (pipes), with the
    encodings and error handlers this process's have (the same locale and environment)."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        old = getattr(sys, f"__{name}__", None)
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = getattr(old, "errors", None) or ("backslashreplace" if fd == 2 else "strict")
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        raw.name = f"<{name}>"
        buffer: io.BufferedReader | io.FileIO = raw
        if fd == 0:  # with the buffer size ``open`` gives it
            size = os.fstat(fd).st_blksize
            buffer = io.BufferedReader(raw, size if size > 1 else io.DEFAULT_BUFFER_SIZE)
        stream = io.TextIOWrapper(
            buffer, encoding, errors, newline="\n", line_buffering=False, write_through=True
        )
        stream.mode = "r" if fd == 0 else "w"  # type: ignore[misc]  # as the interpreter sets it
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _take_environment(env: Mapping[str, str]) -> None:
    """``env`` as this process's environment, less the parent's pid (read once, above)."""
    wanted = {k: v for k, v in env.items() if k != PARENT_PID_ENV}
    for name in set(os.environ) - set(wanted):
        del os.environ[name]
    os.environ.update(wanted)


def _run_as_main_module() -> Any:
    """``sys.argv``, ``sys.path[0]`` and ``__main__`` as ``python -m`` sets them for
    :data:`SPARE_MODULE` (a ``multiprocessing`` spawn of the agent's imports that module
    again, guarded, not this process's script); its ``main``."""
    import importlib

    module = importlib.import_module(SPARE_MODULE)
    sys.argv[:] = [str(module.__file__)]
    sys.orig_argv[:] = [sys.executable, "-m", SPARE_MODULE]
    if not sys.flags.safe_path and sys.path:
        sys.path[0] = os.getcwd()  # the script's folder, for -m the current one
    sys.modules["__main__"] = module
    return module.main


__all__ = ["ForkedWorker", "allow_fork", "can_fork", "start_forked"]
