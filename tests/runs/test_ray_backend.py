"""The Ray backend (`RunPlan.backend == "ray"`), with a local Ray instance on 127.0.0.1 that
the backend starts and stops itself (no address given): the same stream as one evaluator,
an actor killed mid-run, an agent that does not import."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.config.presets import preset_by_name
from tenxeval_tui.runs.plan import RunPlan
from tests.runs.test_pool import ROOT, _by_case, _lines, _outcome, _steps

pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")

PID_AGENT = """
import asyncio, os, signal

async def agent(message, trace):
    if message == "die":
        await asyncio.sleep(1.5)  # its neighbours on the actor most likely finish first
        os.kill(os.getpid(), signal.SIGKILL)
    await asyncio.sleep(0.05)
    trace.node("MAIN", response=message)
    return f"{message} from {os.getpid()}"
"""


def test_ray_actors_stream_what_one_evaluator_does_in_order_per_case() -> None:
    config = preset_by_name("tool_usage")
    config.max_concurrency = 4
    config.reporter.enabled = False
    one = RunPlan(
        agent="sample_evals.weather_graph:build_graph",
        eval_sets=[ROOT / "sample_evals/weather_graph.evalset.json"],
        config=config,
        search_path=ROOT,
    )
    single = _lines(one)
    actors = _lines(one.model_copy(update={"workers": 2, "backend": "ray"}))
    assert actors[0] == single[0] and actors[-1]["type"] == "worker_reports"
    single_cases, actor_cases = _by_case(single), _by_case(actors)
    assert set(actor_cases) == set(single_cases) and len(actor_cases) == 9
    assert sum(line["type"] == "event" for line in actors) > 2 * 9
    for eval_id, lines in actor_cases.items():
        assert lines[0]["type"] == "case_start" and lines[-1]["type"] == "case_end", eval_id
        assert sum(1 for line in lines if line["type"] == "case_end") == 1
        assert _steps(lines) == _steps(single_cases[eval_id]), eval_id
        assert _outcome(lines[-1]) == _outcome(single_cases[eval_id][-1])


def _pid_plan(folder: Path, messages: list[str], **update: object) -> RunPlan:
    (folder / "pid_agent.py").write_text(PID_AGENT)
    cases = [EvalCase.single_turn(f"c{i}", m, m) for i, m in enumerate(messages)]
    EvalSet(eval_set_id="pids", eval_cases=cases).to_file(folder / "p.evalset.json")
    config = preset_by_name("quick_check")
    config.max_concurrency = 2
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
        plan.command(), cwd=cwd, env=plan.worker_env(), capture_output=True, timeout=240
    )
    lines = [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]
    return done.returncode, lines


def test_a_killed_actor_errs_its_running_case_and_every_other_case_runs_once(
    tmp_path: Path,
) -> None:
    messages = [f"m{i}" for i in range(10)]
    messages[3] = "die"
    code, lines = _run(_pid_plan(tmp_path, messages), tmp_path)
    assert code == 0, lines[-3:]
    ends = [line["result"] for line in lines if line["type"] == "case_end"]
    assert sorted(r["eval_id"] for r in ends) == sorted(f"c{i}" for i in range(10))  # type: ignore[index]
    died = next(r for r in ends if r["eval_id"] == "c3")  # type: ignore[index]
    assert str(died["error"]).startswith(  # type: ignore[index]
        "the agent's process died while this case ran (Ray actor "
    )
    (death,) = [line for line in lines if line["type"] == "worker_died"]
    assert "running case(s) end as errors" in str(death["message"])
    # a case that ran beside it on that actor died with it; every other case passed
    for r in ends:
        if r["error"]:  # type: ignore[index]
            assert r["error"] == died["error"], r  # type: ignore[index]
    assert sum(1 for r in ends if not r["error"]) >= 7  # type: ignore[index]
    # the journal (kept by the driver) has every case once
    journal = [
        json.loads(line)
        for line in (tmp_path / "run.journal.jsonl").read_text().splitlines()
        if '"type": "case"' in line
    ]
    assert sorted(j["result"]["eval_id"] for j in journal) == sorted(f"c{i}" for i in range(10))


def test_an_agent_that_does_not_import_fails_once_before_any_case(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("import no_such_module_here\n")
    plan = _pid_plan(tmp_path, ["m0", "m1"], agent="broken:agent")
    code, lines = _run(plan, tmp_path)
    assert code == 3
    errors = [line for line in lines if line["type"] == "worker_error"]
    assert len(errors) == 1 and "no_such_module_here" in str(errors[0]["message"])
    assert not [line for line in lines if line["type"] == "case_start"]
    assert os.environ.get("RAY_ADDRESS") is None  # the backend started and stopped its own
