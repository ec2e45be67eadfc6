"""``run`` starts its worker child first and hands it the plan once its checks pass
(runs/spare_worker.py): the child's imports overlap the parent's, a usage error leaves no
child behind, and a child whose parent ends before the plan comes exits quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.spare_worker import PLAN_ON_STDIN, handover_line, worker_command
from tests.cli.test_run import AGENT, cli, reports
from tests.waiting import scaled

# `tenxeval-tui ARGS...` through its entry point, noting whether pydantic (most of the
# parent's imports) was loaded when the worker child was started.
PROBE = """
import json, sys
seen = []
def hook(event, args):
    if event == "subprocess.Popen" and "tenxeval_tui.runs.worker" in args[1]:
        seen.append("pydantic" in sys.modules)
sys.addaudithook(hook)
from tenxeval_tui.cli.main import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as file:
    json.dump({"code": code, "pydantic_loaded": seen}, file)
"""


def _probe(project: Path, *args: str) -> tuple[dict[str, object], str]:
    """What PROBE noted of ``tenxeval-tui ARGS...``, and its stderr."""
    out = project / "probe.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=scaled(120),
    )
    return json.loads(out.read_text()), done.stderr


def test_the_worker_starts_before_the_parent_imports_its_models(project: Path) -> None:
    args = ["run", "--agent", AGENT, "--case", "order_a100", "-q", "--output-dir", "out"]
    probe, stderr = _probe(project, *args, "evals/plain.evalset.json")
    assert probe == {"code": 0, "pydantic_loaded": [False]}, stderr  # one worker, first
    (report,) = reports(project / "out")
    assert [r["eval_id"] for r in json.loads(report.read_text())["results"]] == ["order_a100"]


def _workers_marked(marker: str) -> list[int]:
    """The processes alive whose environment holds ``marker`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--threshold", "2", "evals/plain.evalset.json"], "is not between 0 and 1"),
        (["evals/nowhere.evalset.json"], "nowhere.evalset.json"),
        (["--shard", "half", "evals"], "--shard: 'half' is not K/N"),
        (["--shard", "5/4", "evals"], "--shard: '5/4': K must be from 1 to N"),
        (["--tags", ",", "evals"], "--tags: no tag given"),
    ],
)
def test_a_usage_error_the_flags_show_starts_no_worker(
    project: Path, flags: list[str], said: str
) -> None:
    probe, stderr = _probe(project, "run", "--agent", AGENT, *flags)
    assert probe == {"code": 2, "pydantic_loaded": []}, stderr  # no worker started
    assert said in stderr


def test_a_usage_error_found_later_leaves_no_worker_behind(project: Path) -> None:
    marker = f"TENXEVAL_TEST_SPARE=usage-{os.getpid()}"
    name, value = marker.split("=")
    flags = ["--config", "nowhere.json", "evals/plain.evalset.json"]
    probe, _ = _probe(project, "run", "--agent", AGENT, *flags)
    assert probe == {"code": 2, "pydantic_loaded": [False]}  # started, then ended
    done = cli(project, "run", "--agent", AGENT, *flags, env={name: value})
    assert done.returncode == 2
    assert "nowhere.json" in done.stderr
    assert _workers_marked(marker) == []


def test_a_spare_worker_whose_stdin_ends_before_a_plan_exits_quietly() -> None:
    done = subprocess.run(
        worker_command(PLAN_ON_STDIN),
        input="",
        capture_output=True,
        text=True,
        timeout=scaled(120),
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_spare_worker_runs_the_plan_it_is_handed_with_its_environment(
    project: Path,
) -> None:
    (project / "env_agent.py").write_text(
        "import os\n\n"
        "async def agent(message, trace):\n"
        "    return os.environ.get('HANDED', 'missing')\n"
    )
    path = project / "evals/plain.evalset.json"
    plan = RunPlan(agent="env_agent:agent", eval_sets=[path], search_path=project, limit=1)
    env = {**plan.worker_env(), "HANDED": "yes"}
    done = subprocess.run(
        worker_command(PLAN_ON_STDIN),
        input=handover_line(plan.model_dump_json(), env),
        cwd=project / "evals",  # the agent is found on the plan's search path alone
        capture_output=True,
        timeout=scaled(120),
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 0, done.stderr
    (result,) = [line["result"] for line in lines if line["type"] == "case_end"]
    assert result["actual_response"] == "yes"
