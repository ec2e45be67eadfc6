"""The console script forks ``run``'s worker child (runs/forked_spare.py): the child is the
run's process forked once its flags are read and before its checks, set up as a worker
started with ``Popen`` is (stdio, environment, signals, ``sys.argv``/``__main__``, no
other fd); an agent's ``multiprocessing`` works in it; a usage error found later ends it;
the modules imported before the fork are ones the parent imports anyway; only the console
script forks, and only a process with one thread."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.runs import forked_spare
from tenxeval_tui.runs.spare_start import IMPORT_STEPS, SHARED_STEPS
from tenxeval_tui.runs.spare_worker import SpareWorker
from tests.cli.test_run import AGENT, SCRIPT, cli, reports
from tests.cli.test_spare_worker import _workers_marked
from tests.waiting import scaled, wait_sync

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# An agent that notes, at its first call, what its worker process is like.
PROBE_AGENT = """
import json, os, signal, sys


def _stream(stream):
    return [type(stream.buffer).__name__, stream.line_buffering, stream.write_through,
            stream.encoding, stream.errors, stream.name, stream.mode]


def _fd_targets():
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return found


async def agent(message, trace):
    signals = ("SIGINT", "SIGTERM", "SIGPIPE", "SIGHUP", "SIGUSR1", "SIGCHLD")
    info = {
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "cli_loaded": "tenxeval_tui.cli" in sys.modules,
        "flags_read": "tenxeval_tui.cli.run_flags" in sys.modules,
        "checks_begun": "tenxeval_tui.cli.run_command" in sys.modules,
        "argv": [os.path.basename(a) for a in sys.argv],
        "path0": sys.path[0],
        "main": getattr(sys.modules["__main__"].__spec__, "name", None),
        "stdin": _stream(sys.stdin),
        "stderr": _stream(sys.__stderr__),
        "unbuffered": os.environ.get("PYTHONUNBUFFERED"),
        "parent_env": os.environ.get("TENXEVAL_PARENT_PID"),
        "signals": {
            name: getattr(signal.getsignal(getattr(signal, name)), "__qualname__",
                          str(signal.getsignal(getattr(signal, name))))
            for name in signals
        },
        "holds_marked_file": os.environ["MARKED_FILE"] in _fd_targets(),
    }
    with open(os.environ["PROBE_OUT"], "w") as handle:
        json.dump(info, handle)
    return message
"""

# `tenxeval-tui ARGS...` through `main()` in a fresh interpreter: no fork, a Popen'd worker.
NO_FORK = "import sys; from tenxeval_tui.cli.main import main; sys.exit(main(sys.argv[1:]))"


def _probed(project: Path, entry: list[str], name: str) -> tuple[dict[str, Any], int]:
    """What the probe agent saw of the worker of ``entry run ...`` (``name``: its files),
    and the pid of the run's process. The run is given an open fd on a marked file, which
    no worker may keep (``Popen`` closes it; the fork must too)."""
    (project / "probe_agent.py").write_text(PROBE_AGENT)
    out, marked = project / f"{name}.json", project / f"{name}.marked"
    marked.write_text("")
    # a run's own streams buffered, as a user's are: its worker's are not (PYTHONUNBUFFERED)
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with marked.open() as held:
        run = subprocess.Popen(
            [*entry, "run", "--agent", "probe_agent:agent", "--case", "order_a100", "-q",
             "--output-dir", f"out-{name}", "evals/plain.evalset.json"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            pass_fds=(held.fileno(),),
            env={**environment, "PROBE_OUT": str(out), "MARKED_FILE": str(marked)},
        )  # fmt: skip
        _, stderr = run.communicate(timeout=scaled(120))
    assert run.returncode in (0, 1), stderr  # the echo may fail the case: no matter
    return json.loads(out.read_text()), run.pid


def test_the_run_worker_is_the_run_process_forked_before_its_checks(project: Path) -> None:
    info, run_pid = _probed(project, [str(SCRIPT)], "forked")
    assert info["ppid"] == run_pid
    # the console script's modules are in (a fork of it), with run's flags (read to know
    # that a worker is wanted), not the checks' (the worker imports in the meantime)
    assert (info["cli_loaded"], info["flags_read"], info["checks_begun"]) == (True, True, False)


def test_a_forked_worker_is_set_up_as_a_worker_started_afresh(project: Path) -> None:
    forked, _ = _probed(project, [str(SCRIPT)], "forked")
    started, _ = _probed(project, [sys.executable, "-c", NO_FORK], "started")
    assert (started["cli_loaded"], forked["cli_loaded"]) == (False, True)  # as it should be
    for info in (forked, started):
        for key in ("pid", "ppid", "cli_loaded", "flags_read", "checks_begun"):
            del info[key]
    assert forked == started
    assert (
        forked["argv"] == ["spare_start.py"] and forked["main"] == "tenxeval_tui.runs.spare_start"
    )
    assert forked["path0"] == str(project) and forked["unbuffered"] == "1"
    assert forked["parent_env"] is None and forked["holds_marked_file"] is False


MP_AGENT = """
import multiprocessing


def write_square(path, number):
    with open(path, "w") as handle:
        handle.write(str(number * number))


async def agent(message, trace):
    results = []
    for method in ("spawn", "fork"):
        path = f"square-{method}.txt"
        process = multiprocessing.get_context(method).Process(target=write_square, args=(path, 3))
        process.start()
        process.join()
        with open(path) as handle:
            results.append(f"{method}={handle.read()}:{process.exitcode}")
    return " ".join(results)
"""


def test_an_agent_using_multiprocessing_runs_in_a_forked_worker(project: Path) -> None:
    (project / "mp_agent.py").write_text(MP_AGENT)
    done = cli(project, "run", "--agent", "mp_agent:agent", "--case", "order_a100", "-q",
               "--output-dir", "out", "evals/plain.evalset.json")  # fmt: skip
    assert done.returncode in (0, 1), done.stderr  # the answer fails the case's criteria
    (report,) = reports(project / "out")
    (result,) = json.loads(report.read_text())["results"]
    assert result["actual_response"] == "spawn=9:0 fork=9:0", result.get("error")


def test_a_usage_error_found_later_ends_the_forked_worker(project: Path) -> None:
    marker = f"TENXEVAL_TEST_SPARE=forked-{os.getpid()}"
    name, value = marker.split("=")
    flags = ["--config", "nowhere.json", "evals/plain.evalset.json"]
    done = cli(project, "run", "--agent", AGENT, *flags, env={name: value})
    assert done.returncode == 2
    assert "nowhere.json" in done.stderr
    # the worker is ended before the run exits; a child it forked (its agent's hash) is
    # killed with it by the kernel, and may take a moment to go
    wait_sync(lambda: _workers_marked(marker) == [], timeout=30, what="every worker gone")


# `tenxeval-tui ARGS...` through `main()` (no fork), noting which of the modules a forked
# worker has imported before the fork the parent had not imported when it handed the plan.
SHARED_PROBE = """
import json, sys
from tenxeval_tui.runs.spare_start import SHARED_STEPS
from tenxeval_tui.runs.spare_start import IMPORT_STEPS, SHARED_STEPS
from tenxeval_tui.runs.spare_worker import SpareWorker
hand = SpareWorker.hand
seen = {}
def noting_hand(self, *given, **named):
    seen["missing"] = [name for name in SHARED_STEPS if name not in sys.modules]
    return hand(self, *given, **named)
SpareWorker.hand = noting_hand
from tenxeval_tui.cli.main import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as file:
    json.dump({"code": code, **seen}, file)
"""


def test_what_is_imported_before_the_fork_the_parent_imports_anyway(project: Path) -> None:
    """The modules a forked worker gets from its parent are ones the parent imports before
    it hands the plan in any case: a worker started afresh imports them too (they are
    worker steps), and the parent imports nothing it would not have."""
    assert set(SHARED_STEPS) <= set(IMPORT_STEPS)
    out = project / "probe.json"
    done = subprocess.run(
        [sys.executable, "-c", SHARED_PROBE, str(out), "run", "--agent", AGENT, "-q",
         "--case", "order_a100", "--output-dir", "out", "evals/plain.evalset.json"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=scaled(120),
    )  # fmt: skip
    assert json.loads(out.read_text()) == {"code": 0, "missing": []}, done.stderr


def test_only_an_allowed_process_with_one_thread_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked_spare, "_allowed", False)
    assert forked_spare.start_forked() is None  # main() in a test, a script: no fork
    release = threading.Event()
    waiting = threading.Thread(target=release.wait)
    waiting.start()
    try:
        forked_spare.allow_fork()
        assert not forked_spare.can_fork()
        assert forked_spare.start_forked() is None  # a second thread: no fork
    finally:
        release.set()
        waiting.join()
    assert forked_spare._allowed is False  # allowed once: used up


def _sleeper() -> SpareWorker:
    """A stand-in for a forked worker: a process that waits to be ended."""
    return SpareWorker(
        subprocess.Popen(
            ["sleep", "300"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    )


def _main_given(
    monkeypatch: pytest.MonkeyPatch, project: Path, forked: SpareWorker, *args: str
) -> list[object]:
    """The workers ``main(args)`` gave its run, ``forked`` being what a fork would give."""
    cli_main = importlib.import_module("tenxeval_tui.cli.main")  # `cli.main` is the function
    run_command = importlib.import_module("tenxeval_tui.cli.run_command")
    given: list[object] = []

    def started(cls: type[SpareWorker]) -> None:
        raise AssertionError("a worker was started beside the forked one")

    def run(args: object, spare: SpareWorker | None = None) -> int:
        given.append(spare)
        return 0

    monkeypatch.chdir(project)
    monkeypatch.setattr(forked_spare, "start_forked", lambda: forked)
    monkeypatch.setattr(SpareWorker, "start", classmethod(started))
    monkeypatch.setattr(run_command, "run_command", run)
    assert cli_main.main(list(args)) == 0
    return given


def test_a_run_wanting_a_worker_runs_with_the_forked_one_and_no_other(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    forked = _sleeper()
    process = forked.process
    assert _main_given(monkeypatch, project, forked, "run", "--agent", AGENT, "evals") == [forked]
    assert process is not None
    assert process.wait(timeout=scaled(30)) == -signal.SIGKILL  # not handed: ended after
    for flags in (["--watch", "evals"], ["missing.evalset.json"]):  # no worker wanted
        unused = _sleeper()
        assert _main_given(monkeypatch, project, unused, "run", *flags) == [None]
        unused.discard()


# `tenxeval-tui ARGS...` forking its worker as the console script does, noting the modules
# it had at the fork and when it hands the plan; its agent notes its worker's at its
# first call.
TWICE_PROBE = """
import json, sys
from tenxeval_tui.runs import forked_spare, spare_worker

out, args = sys.argv[1], sys.argv[2:]
seen = {}
start, hand = forked_spare.start_forked, spare_worker.SpareWorker.hand

def noting_start():
    worker = start()
    seen["fork"] = sorted(sys.modules)
    return worker

def noting_hand(self, *given, **named):
    seen["hand"] = sorted(sys.modules)
    return hand(self, *given, **named)

forked_spare.start_forked, spare_worker.SpareWorker.hand = noting_start, noting_hand
forked_spare.allow_fork()
from tenxeval_tui.cli.main import main
code = main(args)
with open(out, "w") as file:
    json.dump({"code": code, **seen}, file)
"""

MODULES_AGENT = """
import json, os, sys

_told = False


async def agent(message, trace):
    global _told
    if not _told:
        _told = True
        with open(os.environ["AGENT_OUT"], "w") as file:
            json.dump({"pid": os.getpid(), "modules": sorted(sys.modules)}, file)
    return message
"""

BOTH_SIDES = (
    "tenxeval_tui.runs.plan",
    "tenxeval_tui.evaluation.execution.result",
    "tenxeval_tui.runs.case_scan",
    "tenxeval_tui.evaluation.simulators.scenario",
    "tenxeval_tui.evaluation.tools.spec",
    "tenxeval_tui.evaluation.results.journal",
    "tenxeval_tui.evaluation.criteria.base",
    "tenxeval_tui.evaluation.targets.loader",
)
"""What the parent of a plain run imports before it hands the plan and its worker before
its first case: imported after the fork, each was imported (its models built) twice, the
two processes sharing two cores with the agent's hash (issue #38)."""


def test_what_both_sides_import_is_imported_once_before_the_fork(project: Path) -> None:
    (project / "modules_agent.py").write_text(MODULES_AGENT)
    out, seen = project / "parent.json", project / "worker.json"
    done = subprocess.run(
        [sys.executable, "-c", TWICE_PROBE, str(out), "run", "--agent", "modules_agent:agent",
         "-q", "--case", "order_a100", "--output-dir", "out", "evals/plain.evalset.json"],
        cwd=project, capture_output=True, text=True, timeout=scaled(120),
        env={**os.environ, "AGENT_OUT": str(seen)},
    )  # fmt: skip
    parent, worker = json.loads(out.read_text()), json.loads(seen.read_text())
    assert parent["code"] in (0, 1), done.stderr
    assert "fork" in parent and worker["pid"] != os.getpid()  # forked, the agent ran there
    at_fork = set(parent["fork"])
    twice = (set(parent["hand"]) - at_fork) & (set(worker["modules"]) - at_fork)
    assert set(BOTH_SIDES) <= set(worker["modules"])  # the worker did import each
    assert sorted(twice & set(BOTH_SIDES)) == []
