"""`tenxeval-tui run`'s repeat, output, JSON, exit-code, subset and cost flags, through the real
console script in a subprocess (the sample plain agent as in ``test_run.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tests.cli.test_run import AGENT, cli, project, reports

__all__ = ["project"]  # the fixture, shared with test_run.py

FLAKY_AGENT = """
calls = 0

async def agent(message, trace):
    # every other call answers wrongly: with repeats, half the runs of a case fail
    global calls
    calls += 1
    reply = message if calls % 2 else "something else"
    trace.node("MAIN", response=reply)
    return reply
"""


def flaky_project(project: Path) -> list[str]:
    (project / "flaky_agent.py").write_text(FLAKY_AGENT)
    EvalSet(
        eval_set_id="flaky",
        eval_cases=[EvalCase.single_turn(f"c{i}", f"echo {i}", f"echo {i}") for i in range(2)],
    ).to_file(project / "flaky.evalset.json")
    return ["--agent", "flaky_agent:agent", "flaky.evalset.json", "--concurrency", "1"]


def test_repeat_runs_each_case_n_times_and_the_pass_rule_decides(project: Path) -> None:
    args = flaky_project(project)
    strict = cli(project, "run", *args, "--repeat", "2", "--output-dir", "o1", "--no-html")
    # each case passed one run of two: "all" fails it
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "FAILED: 0/2 passed" in strict.stdout
    assert "2/4 runs passed (50.0%)" in strict.stdout
    (report,) = reports(project / "o1")
    data = json.loads(report.read_text())
    assert [len(r["repeat_results"]) for r in data["results"]] == [2, 2]
    assert data["config_used"]["repeats"] == 2
    lenient = cli(
        project, "run", *args, "--repeat", "2", "--pass-rule", "0.5", "--output-dir", "o2"
    )
    assert lenient.returncode == 0, lenient.stdout + lenient.stderr
    assert "PASSED: 2/2 passed" in lenient.stdout
    assert json.loads(reports(project / "o2")[0].read_text())["config_used"]["pass_rule"] == 0.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repeat", "0"], r"--repeat: 0 is not a whole number from 1 to 10,000"),
        (["--pass-rule", "most"], r"--pass-rule: 'most' is neither 'all' nor a number"),
        (["--pass-rule", "1.5"], r"--pass-rule: 1.5 is not a rate in \(0, 1\]"),
    ],
)
def test_bad_repeat_flags_are_usage_errors(project: Path, args: list[str], message: str) -> None:
    done = cli(project, "run", "--agent", AGENT, "evals", *args, "--output-dir", "out")
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert not (project / "out").exists() or not reports(project / "out")
