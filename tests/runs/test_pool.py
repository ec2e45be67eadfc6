"""Worker processes (`RunPlan.workers`): the worker child's protocol stream is the same as
one evaluator's, with the real 10xGraph scripted-model agent."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.config.presets import preset_by_name
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.runs.plan import RunPlan, selected_eval_sets
from tenxeval_tui.runs.pool import ProcessPool, shares
from tests.waiting import scaled, wait_async

pytestmark = pytest.mark.many_processes

ROOT = Path(__file__).resolve().parents[2]

PID_AGENT = """
import asyncio, os, signal

HERE = os.path.dirname(os.path.abspath(__file__))

async def agent(message, trace):
    # "die" kills the process running it every time, "die-once" the first time only
    mark = os.path.join(HERE, "ran-" + message)
    if message == "die" or (message == "die-once" and not os.path.exists(mark)):
        open(mark, "a").close()
        await asyncio.sleep(1.5)  # its neighbours on the actor most likely finish first
        os.kill(os.getpid(), signal.SIGKILL)
    await asyncio.sleep(0.05)
    trace.node("MAIN", response=message)
    return f"{message} from {os.getpid()}"
"""


def _lines(plan: RunPlan) -> list[dict[str, Any]]:
    done = subprocess.run(
        plan.command(), cwd=ROOT, env=plan.worker_env(), capture_output=True, timeout=scaled(180)
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]


def _by_case(lines: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    cases: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        if line["type"] in ("case_start", "event"):
            cases[line["eval_id"]].append(line)
        elif line["type"] == "case_end":
            cases[line["result"]["eval_id"]].append(line)
    return cases


def _steps(lines: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """A case's lines as (type, event type, node): what must match whatever process ran it."""
    return [
        (line["type"], str(line.get("event", {}).get("event_type", "")),
         str(line.get("event", {}).get("node_name", "")))
        for line in lines
    ]  # fmt: skip


def _outcome(line: dict[str, Any]) -> tuple[Any, ...]:
    r = line["result"]
    return (
        r["eval_id"],
        r["passed"],
        r.get("error"),
        tuple((c["criterion"], c["score"], c["passed"]) for c in r["criterion_results"]),
    )


def test_two_workers_stream_what_one_evaluator_does_in_order_per_case(tmp_path: Path) -> None:
    config = preset_by_name("tool_usage")
    config.max_concurrency, config.parallel = 4, True  # parallel: False by default
    config.reporter.enabled = False
    one = RunPlan(
        agent="sample_evals.weather_graph:build_graph",
        eval_sets=[ROOT / "sample_evals/weather_graph.evalset.json"],
        config=config,
        search_path=ROOT,
    )
    single = _lines(one)
    pooled = _lines(one.model_copy(update={"workers": 2}))
    assert pooled[0]["type"] == "worker_plan" and pooled[0] == single[0]
    assert [line["type"] for line in pooled if line["type"].startswith("run_")] == [
        "run_start",
        "run_end",
    ]
    assert pooled[-1]["type"] == "worker_reports"
    single_cases, pooled_cases = _by_case(single), _by_case(pooled)
    assert set(pooled_cases) == set(single_cases) and len(pooled_cases) == 9
    assert sum(line["type"] == "event" for line in pooled) > 2 * 9  # nodes and tool calls
    for eval_id, lines in pooled_cases.items():
        # case_start, then its events in order, then case_end: once each
        assert lines[0]["type"] == "case_start" and lines[-1]["type"] == "case_end", eval_id
        assert sum(1 for line in lines if line["type"] == "case_end") == 1
        assert _steps(lines) == _steps(single_cases[eval_id]), eval_id
        assert _outcome(lines[-1]) == _outcome(single_cases[eval_id][-1])
    end = next(line for line in pooled if line["type"] == "run_end")["report"]
    end_single = next(line for line in single if line["type"] == "run_end")["report"]
    assert end["summary"]["passed_cases"] == end_single["summary"]["passed_cases"]
    assert end["summary"]["total_cases"] == 9
    assert end["summary"]["wall_seconds"] > 0  # #29: every backend records the wall time


def test_the_concurrency_is_split_between_the_workers() -> None:
    assert shares(4, 2) == [2, 2]
    assert shares(5, 2) == [3, 2]
    assert shares(1, 3) == [1, 1, 1]  # every worker runs at least one case at a time


def _pid_plan(folder: Path, messages: list[str], **update: object) -> RunPlan:
    """A plan of the pid agent on ``messages``, 2 workers on the Ray backend, a journal."""
    (folder / "pid_agent.py").write_text(PID_AGENT)
    cases = [EvalCase.single_turn(f"c{i}", m, m) for i, m in enumerate(messages)]
    EvalSet(eval_set_id="pids", eval_cases=cases).to_file(folder / "p.evalset.json")
    config = preset_by_name("quick_check")
    config.max_concurrency, config.parallel = 2, True
    config.reporter.enabled = False
    plan = RunPlan(
        agent="pid_agent:agent",
        agent_explicit=True,
        eval_sets=[folder / "p.evalset.json"],
        config=config,
        search_path=folder,
        workers=2,
        backend="ray",
        journal=folder / "run.journal.jsonl",
    )
    return plan.model_copy(update=update)


def _run(plan: RunPlan, cwd: Path) -> tuple[int, list[dict[str, object]]]:
    done = subprocess.run(
        plan.command(), cwd=cwd, env=plan.worker_env(), capture_output=True, timeout=scaled(240)
    )
    lines = [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]
    return done.returncode, lines


def _journal(folder: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)["result"]
        for line in (folder / "run.journal.jsonl").read_text().splitlines()
        if '"type": "case"' in line
    ]


def _starts_are_said(lines: list[dict[str, Any]]) -> None:
    """A case starts a second time only after a ``case_retry`` line said so."""
    for eval_id, case in _by_case(lines).items():
        retries = [line for line in lines if line["type"] == "case_retry"
                   and line["eval_id"] == eval_id]  # fmt: skip
        starts = [line for line in case if line["type"] == "case_start"]
        assert len(starts) == 1 + len(retries), eval_id


def killed_worker_retries_its_cases_once(folder: Path, backend: str, died_as: str) -> None:
    """A worker killed mid-run: its running case runs again on another worker and passes,
    every case ends once (stream and journal), the run goes on and says so."""
    messages = [f"m{i}" for i in range(10)]
    messages[3] = "die-once"
    code, lines = _run(_pid_plan(folder, messages, backend=backend), folder)
    assert code == 0, lines[-3:]
    ends = [line["result"] for line in lines if line["type"] == "case_end"]
    assert sorted(r["eval_id"] for r in ends) == sorted(f"c{i}" for i in range(10))  # type: ignore[index]
    assert all(not r["error"] for r in ends), ends  # type: ignore[index]
    (death,) = [line for line in lines if line["type"] == "worker_died"]
    assert str(death["message"]).startswith(died_as)
    assert "running case(s) retried on the other workers" in str(death["message"])
    # c3 was retried (and a case that ran beside it on that worker): said in its result, and
    # in the stream before its second start when the driver had read its first start before
    # the death; a case whose start had not been read yet runs again unannounced (the stream
    # never saw it start), which a loaded machine makes happen (case_pool._settle_lost)
    retried = {str(r["eval_id"]) for r in ends if r["metadata"].get("retried") is not None}  # type: ignore[index]
    assert "c3" in retried
    for r in ends:
        said = r["metadata"].get("retried")  # type: ignore[index]
        if said is not None:
            assert str(death["message"]).startswith(f"{said}: ")  # how that worker died
    started_before = {
        str(line["eval_id"]) for line in lines[: lines.index(death)] if line["type"] == "case_start"
    }
    announced = {str(line["eval_id"]) for line in lines if line["type"] == "case_retry"}
    assert announced == retried & started_before, (announced, retried, started_before)
    _starts_are_said(lines)  # type: ignore[arg-type]
    # the journal (kept by the driver) has every case once, the retried ones saying so
    journal = _journal(folder)
    assert sorted(j["eval_id"] for j in journal) == sorted(f"c{i}" for i in range(10))
    assert {j["eval_id"] for j in journal if j["metadata"].get("retried")} == retried


def test_a_case_whose_retry_dies_too_ends_as_the_error_it_was(tmp_path: Path) -> None:
    """Three workers, one case at a time each: the case that kills its worker kills the
    one it is retried on too; it ends as an error (saying it was retried), the rest pass."""
    messages = [f"m{i}" for i in range(9)]
    messages[2] = "die"
    config = preset_by_name("quick_check")
    config.max_concurrency, config.reporter.enabled = 3, False
    config.parallel = True
    plan = _pid_plan(tmp_path, messages, backend="process", workers=3, config=config)
    code, lines = _run(plan, tmp_path)
    assert code == 0, lines[-3:]
    deaths = [str(line["message"]) for line in lines if line["type"] == "worker_died"]
    assert len(deaths) == 2, deaths
    assert "1 running case(s) retried on the other workers" in deaths[0]
    assert "1 running case(s) end as errors" in deaths[1]
    assert [line["eval_id"] for line in lines if line["type"] == "case_retry"] == ["c2"]
    _starts_are_said(lines)
    ends = {line["result"]["eval_id"]: line["result"] for line in lines
            if line["type"] == "case_end"}  # fmt: skip
    assert sorted(ends) == sorted(f"c{i}" for i in range(9))
    died = ends["c2"]
    assert died["error"].startswith("the agent's process died while this case ran (worker ")
    assert died["metadata"]["retried"].startswith("worker ")  # its first worker
    assert died["metadata"]["retried"] != died["error"]
    assert all(not r["error"] for i, r in ends.items() if i != "c2")
    assert all("retried" not in r["metadata"] for i, r in ends.items() if i != "c2")
    assert sorted(j["eval_id"] for j in _journal(tmp_path)) == sorted(ends)


def test_a_killed_worker_process_has_its_running_case_retried_and_every_case_runs_once(
    tmp_path: Path,
) -> None:
    killed_worker_retries_its_cases_once(tmp_path, "process", "worker ")


async def test_a_replacement_up_only_after_the_last_case_ended_is_told_to_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker dies while cases are left, so a new one starts in its place; on a loaded
    machine the other worker may end every case before the new one's process is up. The
    new one is then told at once that nothing will come, and the run ends (before: it was
    never told, and the run waited for it for ever)."""
    plan = _pid_plan(tmp_path, ["m0", "die-once", "m2", "m3"], backend="process")
    ((_, eval_set),) = selected_eval_sets(plan)
    pool = ProcessPool(plan, plan.resolved_config(), [eval_set], 2, RunObserver())
    spawn = asyncio.create_subprocess_exec
    spawned: list[asyncio.subprocess.Process] = []

    async def replacement_up_last(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        if len(spawned) == 2:  # the third process is the replacement: up once all ended
            await wait_async(
                lambda: len(pool.results) == pool.total,
                lambda: asyncio.sleep(0.05),
                120,
                "every case ended on the other worker",
            )
        spawned.append(await spawn(*args, **kwargs))
        return spawned[-1]

    monkeypatch.setattr(asyncio, "create_subprocess_exec", replacement_up_last)
    try:
        # The timeout is a hang detector: the run ends within seconds when it works.
        (report,) = await asyncio.wait_for(pool.run(), scaled(120))
    finally:
        for process in spawned:
            if process.returncode is None:
                process.kill()
    assert len(spawned) == 3  # two workers and the replacement
    assert sorted(r.eval_id for r in report.results) == ["c0", "c1", "c2", "c3"]
    assert all(r.passed for r in report.results)  # c1 passed on its retry
    codes = [process.returncode for process in spawned]
    assert sorted(codes[:2]) == [-signal.SIGKILL, 0], codes  # the agent killed one
    assert codes[2] == 0, codes  # the replacement, told nothing will come, exited cleanly
