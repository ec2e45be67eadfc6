"""`tenxeval-tui run` with agents that exit, die, raise KeyboardInterrupt or leave threads.

Each run ends with a report of the cases that finished and an exit code that is not 0,
through the real console script (the agent runs in the worker child process).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet, report_from_journal
from tests.waiting import scaled, wait_sync

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"

AGENT = """
import asyncio, ctypes, os, signal, sys, threading, time

from tenxeval_tui.evaluation import Trace


async def agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", response=message)
    if message == "sys.exit(0)":
        sys.exit(0)
    if message == "sys.exit(3)":
        sys.exit(3)
    if message == "SystemExit(msg)":
        raise SystemExit("bye")
    if message == "KeyboardInterrupt":
        raise KeyboardInterrupt
    if message == "os._exit(7)":
        os._exit(7)
    if message == "segfault":
        ctypes.string_at(0)
    if message == "kill -9":  # as the OOM killer does
        os.kill(os.getpid(), signal.SIGKILL)
    if message == "thread":
        threading.Thread(target=time.sleep, args=(3600,)).start()  # not a daemon
    if message == "slow":
        await asyncio.sleep(0.3)
    return message
"""


def make_project(root: Path, messages: list[str]) -> Path:
    (root / "hostile.py").write_text(AGENT)
    cases = [EvalCase.single_turn(f"c{i}", text, text) for i, text in enumerate(messages)]
    EvalSet(eval_set_id="hostile", eval_cases=cases).to_file(root / "h.evalset.json")
    return root


def run(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(SCRIPT),
            "run",
            "--agent",
            "hostile:agent",
            "h.evalset.json",
            "--no-html",
            "--concurrency",
            "1",
            "--output-dir",
            "out",
            *extra,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )


def report(root: Path) -> dict[str, object]:
    (path,) = sorted((root / "out").glob("*.json"))
    return json.loads(path.read_text())


def results(root: Path) -> dict[str, dict[str, object]]:
    return {str(r["eval_id"]): r for r in report(root)["results"]}  # type: ignore[attr-defined]


def _worker_of(root: Path) -> list[str]:
    """The worker processes running in ``root`` (their pids): started as a worker module,
    or forked from ``tenxeval-tui run`` (runs/forked_spare.py: its command line is the
    run's, and the run itself is gone when this is asked)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            ours = entry.name.isdigit() and os.readlink(entry / "cwd") == str(root)
            command = (entry / "cmdline").read_bytes() if ours else b""
            if (
                b"tenxeval_tui.runs.worker" in command
                or b"tenxeval_tui.runs.spare_start" in command
                or b"tenxeval-tui\0run\0" in command
            ):
                found.append(entry.name)
        except OSError:
            continue
    return found


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("sys.exit(0)", "SystemExit: the agent tried to end the process (sys.exit(0))"),
        ("sys.exit(3)", "SystemExit: the agent tried to end the process (sys.exit(3))"),
        ("SystemExit(msg)", "SystemExit: the agent tried to end the process (sys.exit('bye'))"),
        ("KeyboardInterrupt", "KeyboardInterrupt"),
    ],
)
def test_an_agent_raising_systemexit_or_keyboardinterrupt_errs_its_case_only(
    tmp_path: Path, message: str, error: str
) -> None:
    root = make_project(tmp_path, ["before", message, "after"])
    done = run(root)
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert list(found) == ["c0", "c1", "c2"]
    assert found["c0"]["passed"] and found["c2"]["passed"]
    assert str(found["c1"]["error"]).startswith(error)
    assert "interrupted" not in done.stderr
    assert "FAILED: 2/3 passed, 0 failed, 1 errored" in done.stdout


@pytest.mark.parametrize(
    ("message", "how"),
    [
        ("os._exit(7)", "exited with status 7"),
        ("segfault", "killed by signal 11 (SIGSEGV)"),
        ("kill -9", "killed by signal 9 (SIGKILL)"),
    ],
)
def test_an_agent_that_kills_its_process_leaves_a_partial_report(
    tmp_path: Path, message: str, how: str
) -> None:
    root = make_project(tmp_path, ["first", "second", message, "never"])
    done = run(root, "--threshold", "0")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"the agent's process {how} before the run finished" in done.stderr
    data = report(root)
    assert data["metadata"]["partial"] is True  # type: ignore[index]
    found = results(root)
    assert list(found) == ["c0", "c1", "c2"]  # the case never started is not made up
    assert found["c0"]["passed"] and found["c1"]["passed"]
    assert found["c2"]["error"] == f"the agent's process died while this case ran ({how})"
    # The journal stays, for a resume to run what did not finish (c2 and c3), and the
    # command that does it is printed.
    (journal,) = (root / "out").glob("*.journal.jsonl")
    assert "resume it with: tenxeval-tui run " in done.stderr
    assert done.stderr.rstrip().endswith(f"--resume out/{journal.name}")


def test_a_thread_left_running_does_not_keep_run_alive(tmp_path: Path) -> None:
    root = make_project(tmp_path, ["thread", "after"])
    done = run(root)  # a hang would end in the subprocess timeout, failing the test
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(r["passed"] for r in results(root).values())
    assert not list((root / "out").glob("*.journal.jsonl"))


def test_kill_9_of_run_leaves_a_journal_that_rebuilds_the_report(tmp_path: Path) -> None:
    root = make_project(tmp_path, ["slow"] * 12)
    run_process = subprocess.Popen(
        [
            str(SCRIPT),
            "run",
            "--agent",
            "hostile:agent",
            "h.evalset.json",
            "--concurrency",
            "1",
            "--output-dir",
            "out",
        ],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        assert run_process.stdout is not None
        first = run_process.stdout.readline()
        assert "PASS" in first, first
        os.kill(run_process.pid, signal.SIGKILL)
        run_process.wait(timeout=scaled(30))
    finally:
        if run_process.poll() is None:
            run_process.kill()
            run_process.wait()
    (journal,) = (root / "out").glob("run-*.journal.jsonl")
    # No process of the run outlives it (the worker dies with it): the journal stays as the
    # worker left it, every finished case in it.
    wait_sync(lambda: not _worker_of(root), timeout=60, what="the worker died with run")
    rebuilt = report_from_journal(journal)
    assert rebuilt.is_partial
    assert 1 <= len(rebuilt.results) < 12
    assert all(r.passed for r in rebuilt.results)
    assert not list((root / "out").glob("hostile*.json"))  # run never wrote its report
    done = run(root, "--from-journal", str(journal))
    assert done.returncode == 1, done.stdout + done.stderr  # partial: not every case ran
    assert [r["eval_id"] for r in report(root)["results"]] == [  # type: ignore[attr-defined]
        r.eval_id for r in rebuilt.results
    ]
