"""`run --workers N` through the real console script: the same report as one process, a
worker killed mid-run (its case retried), Ctrl-C; the setting and the flag's errors go
in-process through its entry point (``in_process``)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, SCRIPT, cli, reports
from tests.waiting import scaled, wait_sync

pytestmark = pytest.mark.many_processes

# Replies with its process id, so a test can tell which worker ran a case.
PID_AGENT = """
import asyncio, os, signal

async def agent(message, trace):
    if message == "die-once" and not os.path.exists("died-once"):  # the run's folder
        open("died-once", "w").close()
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer does
    await asyncio.sleep(0.05 if message != "slow" else 0.4)
    trace.node("MAIN", response=message)
    return f"{message} from {os.getpid()}"
"""


def _comparable(path: Path) -> list[tuple[Any, ...]]:
    """What a report says of each case, less timings and thread ids; then its provenance."""
    data = json.loads(path.read_text())
    return [
        (
            r["eval_id"],
            r["passed"],
            r.get("error"),
            tuple((c["criterion"], c["score"], c["passed"]) for c in r["criterion_results"]),
            r["actual_response"],
            r["metadata"]["case_sha256"],
        )
        for r in data["results"]
    ] + [("provenance", data["metadata"]["provenance"])]


def test_two_workers_write_the_report_one_process_writes(project: Path) -> None:
    one = cli(project, "run", "--agent", AGENT, "evals", "-q", "-o", "one.json")
    two = cli(project, "run", "--agent", AGENT, "evals", "-q", "--workers", "2", "-o", "two.json")
    assert one.returncode == two.returncode == 1  # the sample set fails one case, errs one
    assert _comparable(project / "two.json") == _comparable(project / "one.json")
    assert len(_comparable(project / "two.json")) == 10  # 9 cases and the provenance
    assert two.stdout.splitlines()[-1] == one.stdout.splitlines()[-1]
    # #29: the report of several workers says how long the run took, as one process's does
    for report in ("one.json", "two.json"):
        assert json.loads((project / report).read_text())["summary"]["wall_seconds"] > 0


def _pid_project(root: Path, messages: list[str]) -> None:
    (root / "pid_agent.py").write_text(PID_AGENT)
    cases = [EvalCase.single_turn(f"c{i}", m, m) for i, m in enumerate(messages)]
    EvalSet(eval_set_id="pids", eval_cases=cases).to_file(root / "p.evalset.json")


def test_a_killed_worker_has_its_running_case_retried_and_every_case_runs_once(
    tmp_path: Path,
) -> None:
    messages = [f"m{i}" for i in range(12)]
    messages[5] = "die-once"
    _pid_project(tmp_path, messages)
    done = subprocess.run(
        [str(SCRIPT), "run", "--agent", "pid_agent:agent", "p.evalset.json", "--workers", "2",
         "--concurrency", "2", "--preset", "quick_check", "-o", "r.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=scaled(180),
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert (tmp_path / "died-once").exists()  # a worker was killed
    found = re.search(
        r"tenxeval-tui run: (worker [12] of 2 killed by signal 9 \(SIGKILL\)): 1 running "
        r"case\(s\) retried on the other workers, \d+ not started go to the other workers",
        done.stderr,
    )
    assert found, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    ids = [r["eval_id"] for r in data["results"]]
    assert ids == [f"c{i}" for i in range(12)]  # every case once, in input order
    retried = data["results"][5]
    assert retried["error"] is None and retried["metadata"]["retried"] == found.group(1)
    others = [r for r in data["results"] if r["eval_id"] != "c5"]
    assert all(r.get("error") is None and "retried" not in r["metadata"] for r in others)
    assert "partial" not in data["metadata"]
    said = f"retried after a worker died: 1 case(s): c5 ({found.group(1)})"
    assert said in " ".join(done.stdout.split())  # the console report (as it wraps)
    assert ", 0 errored, 1 retried, pass rate" in done.stdout.splitlines()[-1]


def test_both_workers_run_cases(tmp_path: Path) -> None:
    _pid_project(tmp_path, [f"m{i}" for i in range(10)])
    done = cli(
        tmp_path, "run", "--agent", "pid_agent:agent", "p.evalset.json", "--workers", "2",
        "--preset", "quick_check", "-q", "-o", "r.json",
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    pids = {r["actual_response"].rsplit(" ", 1)[-1] for r in data["results"]}
    assert len(pids) == 2, pids


def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_ctrl_c_stops_every_worker_and_keeps_the_finished_cases(tmp_path: Path) -> None:
    _pid_project(tmp_path, ["slow"] * 12)
    child = subprocess.Popen(
        [str(SCRIPT), "run", "--agent", "pid_agent:agent", "p.evalset.json", "--workers", "2",
         "--concurrency", "2", "--output-dir", "out", "--no-html", "--preset", "quick_check"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert re.match(r"\[1/12\] PASS +pids/c\d+ ", first), first
        workers = _descendants(child.pid)
        assert len(workers) == 3  # the worker child and its two pool workers
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=scaled(60))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "interrupted: writing the report of the finished cases" in err
    wait_sync(lambda: not any(_alive(pid) for pid in workers), what="every worker has ended")
    (report,) = reports(tmp_path / "out")
    data = json.loads(report.read_text())
    assert data["metadata"]["partial"] is True
    assert 1 <= len(data["results"]) < 12
    assert all(r["passed"] for r in data["results"])


def test_workers_from_the_settings_and_bad_values(project: Path, in_process: InProcess) -> None:
    (project / "pyproject.toml").write_text('[tool.tenxeval]\nworkers = "auto"\n')
    done = in_process(project, "run", "--agent", AGENT, "evals", "--tags", "smoke", "-q")
    assert done.returncode == 0, done.stderr
    (project / "pyproject.toml").write_text("[tool.tenxeval]\nworkers = 0\n")
    bad = in_process(project, "run", "--agent", AGENT, "evals", "-q")
    assert bad.returncode == 2
    assert "tool.tenxeval.workers: Value error, 0 is not a number of at least 1" in bad.stderr
    (project / "pyproject.toml").unlink()
    for value, problem in (("many", "'many' is neither a number nor 'auto'"), ("-1", "at least 1")):
        flagged = in_process(project, "run", "--agent", AGENT, "evals", "--workers", value)
        assert flagged.returncode == 2 and "--workers: " in flagged.stderr
        assert problem in flagged.stderr
    budget = in_process(
        project, "run", "--agent", AGENT, "evals", "--workers", "2", "--max-cost", "1"
    )
    assert budget.returncode == 2 and "--max-cost: not with several workers" in budget.stderr
    address = in_process(project, "run", "--agent", AGENT, "evals", "--address", "127.0.0.1:1")
    assert address.returncode == 2 and "--address: only goes with --backend ray" in address.stderr


def test_an_agent_that_does_not_import_fails_once_before_any_case(project: Path) -> None:
    (project / "broken_agent.py").write_text("import no_such_module_here\n")
    done = cli(project, "run", "--agent", "broken_agent:agent", "evals", "--workers", "2")
    assert done.returncode == 2
    assert done.stderr.count("no_such_module_here") == 1, done.stderr
    assert "PASS" not in done.stdout and "FAIL" not in done.stdout


def test_the_ray_backend_writes_the_report_one_process_writes(project: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")
    one = cli(project, "run", "--agent", AGENT, "evals", "-q", "-o", "one.json")
    ray = cli(
        project, "run", "--agent", AGENT, "evals", "-q", "--backend", "ray", "--workers", "2",
        "-o", "ray.json", timeout=scaled(300),
    )  # fmt: skip
    assert one.returncode == ray.returncode == 1, ray.stderr
    assert _comparable(project / "ray.json") == _comparable(project / "one.json")
    assert ray.stdout.splitlines()[-1] == one.stdout.splitlines()[-1]


def test_ctrl_c_stops_the_ray_actors_and_keeps_the_finished_cases(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")
    _pid_project(tmp_path, ["slow"] * 12)
    child = subprocess.Popen(
        [str(SCRIPT), "run", "--agent", "pid_agent:agent", "p.evalset.json", "--backend", "ray",
         "--workers", "2", "--concurrency", "2", "--output-dir", "out", "--no-html",
         "--preset", "quick_check"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert re.match(r"\[1/12\] PASS +pids/c\d+ ", first), first
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=scaled(60))  # promptly: Ray's own shutdown included
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    (report,) = reports(tmp_path / "out")
    data = json.loads(report.read_text())
    assert data["metadata"]["partial"] is True
    assert 1 <= len(data["results"]) < 12
    assert all(r["passed"] for r in data["results"])
    actors = {int(r["actual_response"].rsplit(" ", 1)[-1]) for r in data["results"]}
    wait_sync(lambda: not any(_alive(pid) for pid in actors), what="the actors have ended")
