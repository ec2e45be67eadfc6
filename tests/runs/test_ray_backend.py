"""The Ray backend (`RunPlan.backend == "ray"`), with a local Ray instance on 127.0.0.1 that
the backend starts and stops itself (no address given): the same stream as one evaluator,
an actor killed mid-run (its cases retried), an agent that does not import."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.config.presets import preset_by_name
from tenxeval_tui.runs.plan import RunPlan
from tests.runs.test_pool import (
    ROOT,
    _by_case,
    _lines,
    _outcome,
    _pid_plan,
    _run,
    _steps,
    killed_worker_retries_its_cases_once,
)

pytestmark = pytest.mark.many_processes

# Whether Ray is installed, not imported: the tests run it in their children, and importing it
# here cost each xdist worker 0.3 CPU-s and 34 MB at collection.
if importlib.util.find_spec("ray") is None:
    pytest.skip("the ray extra is not installed (pip install '.[ray]')", allow_module_level=True)


def test_ray_actors_stream_what_one_evaluator_does_in_order_per_case() -> None:
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
    end = next(line for line in actors if line["type"] == "run_end")["report"]
    assert end["summary"]["wall_seconds"] > 0  # #29: every backend records the wall time


def test_a_killed_actor_has_its_running_cases_retried_and_every_case_runs_once(
    tmp_path: Path,
) -> None:
    killed_worker_retries_its_cases_once(tmp_path, "ray", "Ray actor ")


def test_an_agent_that_does_not_import_fails_once_before_any_case(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("import no_such_module_here\n")
    plan = _pid_plan(tmp_path, ["m0", "m1"], agent="broken:agent")
    code, lines = _run(plan, tmp_path)
    assert code == 3
    errors = [line for line in lines if line["type"] == "worker_error"]
    assert len(errors) == 1 and "no_such_module_here" in str(errors[0]["message"])
    assert not [line for line in lines if line["type"] == "case_start"]
    assert os.environ.get("RAY_ADDRESS") is None  # the backend started and stopped its own
