"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import gc
import json
import logging
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tenxeval_tui.cli.main import main

# The loopback OpenAI-compatible server (playing judges and simulated users), for the
# tests of `run` on scenario files.
from tests.evaluation.criteria.conftest import judge_env, judge_server
from tests.waiting import scaled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder: the sample plain agent as ./support_agent.py and its eval set."""
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    (tmp_path / "evals").mkdir()
    eval_set = json.loads((ROOT / "sample_evals/plain_agent.evalset.json").read_text())
    del eval_set["metadata"]["agent"]  # the tests name the agent themselves
    (tmp_path / "evals/plain.evalset.json").write_text(json.dumps(eval_set, indent=2))
    return tmp_path


@dataclass(frozen=True)
class Outcome:
    """What a command did: the exit status and what it printed (as ``CompletedProcess``)."""

    returncode: int
    stdout: str
    stderr: str


InProcess = Callable[..., Outcome]


@pytest.fixture
def in_process(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[InProcess]:
    """``in_process(cwd, *args, env=...)``: ``tenxeval-tui ARGS`` through the console
    script's own entry point (``tenxeval_tui.cli.main``) in this process, in ``cwd``.

    The same parsing, checks and run as the console script, without starting Python again
    (each run's parent costs ~0.3 CPU-s of start-up and imports): for what a command does
    (its reports, exit code, what it prints). What only a real process shows (signals,
    the bytes a terminal or pipe sees, processes left behind) keeps its tests through the
    real console script (``test_run.cli``), and so does each behaviour at least once.

    Output is captured at the file descriptors, as a pipe would see it: the worker child's
    stderr, which reaches fd 2 without passing through this process, is in ``stderr``.
    What a command changes in this process is put back after: the environment (``run``
    exports the judge's settings), ``sys.argv`` (``run`` prints commands from it), the
    root logger (``run`` sets its level and handler), the SIGTERM handler (``run`` installs
    its own), ``sys.path`` and the agent modules it imported. A command that leaves a
    thread running, a child process (a spare worker not ended) or a file descriptor open
    fails the test.
    """
    path, modules, folders = list(sys.path), set(sys.modules), set[Path]()
    environ = dict(os.environ)
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    on_sigterm = signal.getsignal(signal.SIGTERM)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")

    def run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> Outcome:
        folders.add(cwd.resolve())
        monkeypatch.chdir(cwd)
        monkeypatch.setattr(sys, "argv", ["tenxeval-tui", *args])
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capfd.readouterr()
        threads, fds, children = set(threading.enumerate()), _open_fds(), set(_children())
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's own usage errors
            code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            signal.signal(signal.SIGTERM, on_sigterm)
        out, err = capfd.readouterr()
        _nothing_left(threads, fds, children, " ".join(args))
        return Outcome(code, out, err)

    try:
        yield run
    finally:
        os.environ.clear()
        os.environ.update(environ)
        root.setLevel(level)
        root.handlers[:] = handlers
        signal.signal(signal.SIGTERM, on_sigterm)
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            file = getattr(sys.modules[name], "__file__", None)
            if file and any(Path(file).resolve().is_relative_to(f) for f in folders):
                del sys.modules[name]


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else set()


def _target(fd: str) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "?"


def _children() -> list[int]:
    """This process's child processes (zombies too: a child never waited for)."""
    me, found = os.getpid(), []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            stat = entry.read_text()
        except OSError:  # it ended meanwhile
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            found.append(int(entry.parent.name))
    return found


def _nothing_left(
    threads: set[threading.Thread], fds: set[str], children: set[int], command: str
) -> None:
    """Fail unless the command's threads, child processes and descriptors are gone (waited
    for: a forwarding thread may read its pipe's last line just after the run returns)."""

    def left() -> list[str]:
        running = [t.name for t in threading.enumerate() if t not in threads and t.is_alive()]
        if opened := _open_fds() - fds:  # a pipe held in a reference cycle closes at gc
            gc.collect()
            opened = _open_fds() - fds
        return [
            *running,
            *(f"child {pid}" for pid in set(_children()) - children),
            *(f"fd {f} ({_target(f)})" for f in sorted(opened)),
        ]

    deadline = time.monotonic() + scaled(10)
    while (remaining := left()) and time.monotonic() < deadline:
        time.sleep(0.05)
    if remaining:
        pytest.fail(f"tenxeval-tui {command} left behind: {', '.join(remaining)}")


__all__ = ["InProcess", "Outcome", "in_process", "judge_env", "judge_server", "project"]
