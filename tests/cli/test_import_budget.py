"""What `tenxeval-tui run` loads in the parent: only what a plain run uses.

The parent of a plain `run` (no --watch, no --variants, no scenario file, no Ray) starts a
worker child that runs the cases; every module it imports before that delays the first
case. A fresh interpreter runs the command through the console script's entry point and
reports the modules it loaded: the watch, variant and simulator code, Textual, Ray and the
OpenAI client stay unloaded, rich too when quiet, and the package's own modules stay within
a budget (a count with headroom, not a time: `python -X importtime` shows where the time
goes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.waiting import scaled

# Runs `tenxeval-tui ARGS...` in this interpreter through its entry point, then writes the
# exit code and the names of the loaded modules to the file named first.
PROBE = """
import json, sys
from tenxeval_tui.cli.main import main

out, args = sys.argv[1], sys.argv[2:]
code = main(args)
with open(out, "w") as file:
    json.dump({"code": code, "modules": sorted(sys.modules)}, file)
"""

# The package's modules a plain quiet 1-case `run` loads in its parent: 140 when this was
# set (169 before the history index was imported only for a folder that has one and the
# reuse code only for --reuse, 191 before the watch, variant and simulator code was made
# lazy); the headroom lets the code grow a little, not by a whole feature's worth of
# modules.
RUN_PARENT_BUDGET = 155
# What `import tenxeval_tui.cli.run_command` alone loads of the package (110 when set, 137
# before).
RUN_COMMAND_IMPORT_BUDGET = 125

NOT_FOR_A_PLAIN_RUN = (
    "textual",
    "ray",
    "openai",
    "tenxeval_tui.app",
    "tenxeval_tui.screens",
    "tenxeval_tui.widgets",
    "tenxeval_tui.cli.watch_run",
    "tenxeval_tui.runs.watch",
    "tenxeval_tui.cli.variant_display",
    "tenxeval_tui.cli.variant_json",
    "tenxeval_tui.runs.variant_session",
    "tenxeval_tui.evaluation.analysis.matrix",
    "tenxeval_tui.runs.scenario_check",
    "tenxeval_tui.evaluation.simulators.runner",
    "tenxeval_tui.evaluation.simulators.user_simulator",
    "tenxeval_tui.evaluation.simulators.simulated_user",
    "tenxeval_tui.evaluation.evaluator",
    # The history index (its report models, SQLite) only for an output folder that has
    # one; the parent of a plain run runs no event loop (issue #38: after its worker ends,
    # they delayed the run's end).
    "tenxeval_tui.browsing.history.index",
    "sqlite3",
    "asyncio",
    # The earlier reports' reuse (the cases' fingerprints) only with --reuse: a report's
    # reused results are counted without it (runs/reused_counts.py).
    "tenxeval_tui.runs.reuse",
    "tenxeval_tui.evaluation.provenance",
    # JUnit's XML only for a JUnit report (reporters/json.py names its reporter lazily).
    "tenxeval_tui.evaluation.reporters.junit",
    "xml.etree",
)


def _loaded(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


def _own(modules: list[str]) -> list[str]:
    return [m for m in modules if m == "tenxeval_tui" or m.startswith("tenxeval_tui.")]


def _probe(cwd: Path, *args: str) -> dict[str, object]:
    out = cwd / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(out.read_text())
    return result


def test_a_plain_quiet_run_loads_only_what_it_uses(project: Path) -> None:
    result = _probe(
        project,
        "run",
        "--agent",
        "support_agent:support_agent",
        "--case",
        "order_a100",
        "--output-dir",
        "out",
        "-q",
        "evals/plain.evalset.json",
    )
    assert result["code"] == 0  # the case ran and passed: the probe saw a whole run
    modules = result["modules"]
    assert isinstance(modules, list)
    assert _loaded(modules, NOT_FOR_A_PLAIN_RUN) == []
    assert _loaded(modules, ("rich",)) == []  # quiet: no console report is printed
    assert "tenxeval_tui.runs.session" in modules  # the probe measured a real run
    assert len(_own(modules)) <= RUN_PARENT_BUDGET, sorted(_own(modules))


def test_importing_the_run_command_stays_within_its_budget(tmp_path: Path) -> None:
    code = "import json, sys, tenxeval_tui.cli.run_command; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout)
    assert _loaded(modules, (*NOT_FOR_A_PLAIN_RUN, "rich", "jinja2")) == []
    assert len(_own(modules)) <= RUN_COMMAND_IMPORT_BUDGET, sorted(_own(modules))


def test_the_worker_loads_no_simulator_for_an_eval_set() -> None:
    """The worker child imports its runner (the core's ``EvaluationRunner``) for every run;
    the user simulator comes only with a scenario file."""
    code = (
        "import json, sys, tenxeval_tui.runs.worker, tenxeval_tui.evaluation.runner; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout)
    assert "tenxeval_tui.evaluation.evaluator" in modules  # the runner really loaded
    simulator = (
        "tenxeval_tui.evaluation.simulators.runner",
        "tenxeval_tui.evaluation.simulators.user_simulator",
        "tenxeval_tui.evaluation.simulators.simulated_user",
        "textual",
        "rich",
        "tenxeval_tui.runs.watch",
    )
    assert _loaded(modules, simulator) == []


# Runs `tenxeval-tui ARGS...` through its entry point and writes which modules the parent
# had loaded and which threads it had started when it called SpareWorker.METHOD: `prepare`
# tells the spare worker its agent, `hand` hands it the plan; and the threads it started
# in all.
MODULES_AT_PROBE = """
import json, sys, threading
from tenxeval_tui.runs import spare_worker

out, args = sys.argv[1], sys.argv[2:]
seen = {}
started = []
called = spare_worker.SpareWorker.METHOD
start = threading.Thread.start

def recording(self, *given):
    seen["modules"] = sorted(sys.modules)
    seen["threads"] = list(started)
    return called(self, *given)

def starting(self):
    started.append(self.name)
    return start(self)

spare_worker.SpareWorker.METHOD = recording
threading.Thread.start = starting
from tenxeval_tui.cli.main import main
code = main(args)
with open(out, "w") as file:
    json.dump({"code": code, "started": started, **seen}, file)
"""
TELL_PROBE = MODULES_AT_PROBE.replace("METHOD", "prepare")
HANDOVER_PROBE = MODULES_AT_PROBE.replace("METHOD", "hand")


def _probed_run(project: Path, probe: str) -> dict[str, Any]:
    """What ``probe`` (:data:`MODULES_AT_PROBE` for one method) wrote of a one-case run of
    the project's agent through the command's entry point."""
    out = project / "probed.json"
    done = subprocess.run(
        [sys.executable, "-c", probe, str(out), "run", "--agent",
         "support_agent:support_agent", "--case", "order_a100", "--output-dir", "out", "-q",
         "evals/plain.evalset.json"],
        cwd=project, capture_output=True, text=True, timeout=scaled(120),
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(out.read_text())
    return result


LOADED_AFTER_THE_TELL = (
    "tenxeval_tui.evaluation.config.eval_config",
    "tenxeval_tui.evaluation.dataset.eval_set",
    "tenxeval_tui.runs.plan",
    "tenxeval_tui.runs.session",
    "tenxeval_tui.cli.unknown_keys",
)
"""What the parent imports only once its worker is told the agent: imported before, they
delayed the tell, and so the agent's import in the worker (issue #38)."""


def test_the_worker_is_told_its_agent_before_the_parent_imports_the_run(project: Path) -> None:
    result = _probed_run(project, TELL_PROBE)
    assert result["code"] == 0  # a whole run, its agent told to its spare worker
    assert _loaded(result["modules"], LOADED_AFTER_THE_TELL) == []


LOADED_AFTER_THE_HANDOVER = (
    "asyncio",
    # Not "pickle" itself: the parent's report-writers thread (runs/report_writers.py)
    # imports jinja2, which imports it, at its own pace; ours is what forks and isolates.
    "tenxeval_tui.runs.forked",
    "tenxeval_tui.evaluation.testing",
    "tenxeval_tui.evaluation.isolation",
    "tenxeval_tui.evaluation.provenance",
    "tenxeval_tui.runs.provenance",
    "tenxeval_tui.runs.pool",
    "tenxeval_tui.runs.reuse",
)
"""What the parent of a plain run needs only once its worker has the plan (the worker
runs the cases, hashes the agent, writes the journal): imported before, they delayed
the hand-over, and so the first case (issue #38)."""


def test_the_parent_hands_its_plan_over_before_it_imports_what_runs_the_cases(
    project: Path,
) -> None:
    result = _probed_run(project, HANDOVER_PROBE)
    assert result["code"] == 0  # a whole run, its plan handed to its spare worker
    assert "tenxeval_tui.runs.session" in result["modules"]  # the probe saw the hand-over
    assert _loaded(result["modules"], LOADED_AFTER_THE_HANDOVER) == []
    # The report writers (jinja2, the page's template) load in a thread while the worker
    # runs, started once it has the plan: its imports held the GIL from the hand-over.
    assert "report-writers" not in result["threads"]
    assert "report-writers" in result["started"]


# An agent that writes, at its first call, what its worker had loaded and which of the
# models a run uses only after its cases (or only with tools, scenarios) were built.
FIRST_CASE_AGENT = """
import json, os, sys

_told = False


async def agent(message, trace):
    global _told
    if not _told:
        _told = True
        from tenxeval_tui.evaluation import eval_result, stats
        from tenxeval_tui.evaluation.simulators import scenario
        from tenxeval_tui.evaluation.tools import spec
        from tenxeval_tui.runs import case_scan

        models = (eval_result.EvalReport, eval_result.EvalSummary, stats.RunRepeatStats,
                  scenario.ScenarioSet, scenario.ConversationScenario, case_scan.ScannedSet,
                  spec.ToolSpec, spec.FaultSpec)
        with open(os.environ["FIRST_CASE_PROBE"], "w") as file:
            json.dump({"modules": sorted(sys.modules),
                       "built": [m.__name__ for m in models if m.__pydantic_complete__]}, file)
    return message
"""

RUN = "import sys; from tenxeval_tui.cli.main import main; sys.exit(main(sys.argv[1:]))"

NOT_BEFORE_THE_FIRST_CASE = (
    "tenxeval_tui.evaluation.judges.models",  # the judges' client: no judged criterion
    "tenxeval_tui.evaluation.judges.cache",
    "tenxeval_tui.evaluation.judges.http",
    "statistics",  # the repeats' spreads
    "html",  # a report's page for Jupyter
    # the cases' tools under control (fakes, faults, cassettes): their tools just run
    "tenxeval_tui.evaluation.tools.session",
    "tenxeval_tui.evaluation.tools.cassette",
    "difflib",
)
"""What a run's worker without judges or repeats loads only after its first case, if at
all: imported before, it delayed the first case (issue #38)."""


def test_the_worker_reaches_its_first_case_without_what_comes_after_it(project: Path) -> None:
    (project / "first_case_agent.py").write_text(FIRST_CASE_AGENT)
    out = project / "first.json"
    done = subprocess.run(
        [sys.executable, "-c", RUN, "run", "--agent", "first_case_agent:agent",
         "--case", "order_a100", "--output-dir", "out", "-q", "evals/plain.evalset.json"],
        cwd=project, capture_output=True, text=True, timeout=scaled(120),
        env={**os.environ, "NO_COLOR": "1", "FIRST_CASE_PROBE": str(out)},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr  # the echo fails the case's criteria
    result = json.loads(out.read_text())
    assert "tenxeval_tui.runs.worker" in result["modules"]  # the probe ran in the worker
    assert _loaded(result["modules"], NOT_BEFORE_THE_FIRST_CASE) == []
    assert result["built"] == []


# Imports a spare worker's steps one at a time in a fresh interpreter and prints, for
# each step, the modules it brought in.
STEPS_PROBE = """
import importlib, json, sys
from tenxeval_tui.runs.spare_start import IMPORT_STEPS

steps = []
for name in IMPORT_STEPS:
    before = set(sys.modules)
    importlib.import_module(name)
    steps.append(sorted(set(sys.modules) - before))
print(json.dumps(steps))
"""


def test_a_spare_worker_looks_for_its_agent_between_the_core_s_model_imports() -> None:
    """The prepare line is looked for between the steps: the eval set's models, the
    results' models and the evaluator each come in a step of their own, so a line that
    comes while the models are imported is taken before the rest are."""
    done = subprocess.run(
        [sys.executable, "-c", STEPS_PROBE], capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    steps = json.loads(done.stdout)
    assert all(steps), "a step imports nothing new: an earlier step already imported it"

    def step_of(module: str) -> int:
        return next(i for i, step in enumerate(steps) if module in step)

    heavy = [
        "pydantic_core",
        "tenxeval_tui.evaluation.dataset.eval_set",
        "tenxeval_tui.evaluation.eval_result",
        "tenxeval_tui.evaluation.agent_evaluator",
    ]
    assert len({step_of(module) for module in heavy}) == len(heavy)
