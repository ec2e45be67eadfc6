"""A worker hashes the agent's code as it finds it before importing the agent, in a forked
copy of itself while the import goes on (runs/agent_parts.py, runs/forked.py): the hash
is the one found without the fork, even when the agent's import changes ``sys.path``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tenxeval_tui.evaluation.provenance import agent_code
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.spare_worker import handover_line, prepare_line, spare_command
from tests.cli.test_run import cli, reports
from tests.waiting import scaled

# An agent whose import puts a folder of the project on sys.path and imports from it: its
# code hashed after the import would take vendor/helper.py in too.
PATH_CHANGING_AGENT = """
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "vendor"))

import helper


async def agent(message, trace):
    return helper.answer(message)
"""


def _project_with_path_changing_agent(project: Path) -> tuple[str, str]:
    """The agent's code hash as found before its import, and after."""
    (project / "pathy_agent.py").write_text(PATH_CHANGING_AGENT)
    (project / "vendor").mkdir()
    (project / "vendor/helper.py").write_text("def answer(message):\n    return 'ok'\n")
    before = agent_code("pathy_agent", project)
    after = agent_code("pathy_agent", project, [str(project / "vendor"), *sys.path])
    assert before is not None and after is not None
    assert before.sha256 != after.sha256  # the test can tell them apart
    return before.sha256, after.sha256


def test_a_run_hashes_the_agents_code_as_found_before_its_import(project: Path) -> None:
    before, _ = _project_with_path_changing_agent(project)
    done = cli(project, "run", "--agent", "pathy_agent:agent", "evals/plain.evalset.json",
               "--case", "order_a100", "-q", "--output-dir", "out")  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    (report,) = reports(project / "out")
    assert json.loads(report.read_text())["metadata"]["provenance"]["agent_sha256"] == before


def _one_case_plan(project: Path, journal: Path) -> RunPlan:
    """A plan of one case of the path-changing agent, its journal at ``journal``."""
    return RunPlan(
        agent="pathy_agent:agent",
        agent_explicit=True,
        eval_sets=[project / "evals/plain.evalset.json"],
        search_path=project,
        limit=1,
        journal=journal,
    )


def test_a_worker_handed_its_plan_at_start_hashes_it_so_too(project: Path) -> None:
    before, _ = _project_with_path_changing_agent(project)
    journal = project / "run.journal.jsonl"
    plan = _one_case_plan(project, journal)
    done = subprocess.run(
        plan.command(),
        cwd=project,
        capture_output=True,
        timeout=scaled(120),
        env=plan.worker_env(),
    )
    assert done.returncode == 0, done.stderr
    starts = [json.loads(line) for line in journal.read_text().splitlines()]
    (start,) = [line for line in starts if line.get("type") == "run_start"]
    assert start["metadata"]["provenance"]["agent_sha256"] == before


def test_a_spare_worker_told_its_agent_during_its_imports_hashes_it_so_too(
    project: Path,
) -> None:
    """Both lines wait on its stdin from the start: the spare reads the prepare line
    between its imports and starts the hash there (runs/spare_start.py)."""
    before, _ = _project_with_path_changing_agent(project)
    journal = project / "run.journal.jsonl"
    plan = _one_case_plan(project, journal)
    told, env = plan.told_spare(), plan.worker_env()
    assert told is not None
    done = subprocess.run(
        spare_command(),
        input=prepare_line(told, env) + handover_line(plan.model_dump_json(), env),
        cwd=project / "evals",  # the agent is found on the told search path alone
        capture_output=True,
        timeout=scaled(120),
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [line["type"] for line in lines].count("case_end") == 1
    starts = [json.loads(line) for line in journal.read_text().splitlines()]
    (start,) = [line for line in starts if line.get("type") == "run_start"]
    assert start["metadata"]["provenance"]["agent_sha256"] == before


def test_the_agents_hash_needs_none_of_the_cores_models() -> None:
    """A spare worker starts the hash once ``early_agent`` is imported, before pydantic
    and the eval set, config and result models (most of its imports) are."""
    code = "import json, sys, tenxeval_tui.runs.early_agent; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert "tenxeval_tui.evaluation.provenance.agent_code" in modules  # the walk is there
    heavy = {
        "pydantic",
        "asyncio",
        "tenxeval_tui.evaluation.dataset.eval_set",
        "tenxeval_tui.evaluation.config.eval_config",
        "tenxeval_tui.evaluation.eval_result",
        "tenxeval_tui.runs.plan",
    }
    assert heavy & modules == set()


# Forked in a fresh interpreter (one thread: a test runner's threads make it decline).
FORKED = """
import json, os, threading
from tenxeval_tui.runs.forked import Forked, ForkFailed

def failing():
    raise ValueError("told back")

found = {"pid": Forked.start(os.getpid).result() != os.getpid()}
try:
    Forked.start(failing).result()
except ValueError as exc:
    found["raised"] = str(exc)
try:
    Forked.start(lambda: os._exit(3)).result()
except ForkFailed:
    found["died"] = True
stop = threading.Event()
thread = threading.Thread(target=stop.wait)
thread.start()
found["declined_beside_a_thread"] = Forked.start(os.getpid) is None
stop.set()
thread.join()
print(json.dumps(found))
"""


def test_forked_gives_a_childs_answer_or_error_and_declines_beside_threads() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=scaled(60)
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "pid": True,
        "raised": "told back",
        "died": True,
        "declined_beside_a_thread": True,
    }


# A worker told its agent imports it: the probe records what its import saw.
PREPARED = """
import gc, json, sys
from tenxeval_tui.runs.early_agent import EarlyAgent

early = EarlyAgent()
early.prepare({"agent": "gc_probe:agent", "search_path": sys.argv[1], "verbose": None,
               "log_level": None})
import gc_probe

print(json.dumps({
    "on_during_import": gc_probe.COLLECTOR_ON,
    "on_after": gc.isenabled(),
    "made_in_oldest": any(o is gc_probe.MADE for o in gc.get_objects(2)),
    "failed": sorted(early.failed),
}))
"""


def test_a_worker_imports_its_agent_without_the_cycle_collector_and_keeps_what_it_built_old(
    tmp_path: Path,
) -> None:
    """The agent's modules (10xGraph's: some hundred thousand objects) live as long as the
    worker: young collections during their import walked them again and again, and after
    it would keep walking them. The collector is back on after the import."""
    (tmp_path / "gc_probe.py").write_text(
        "import gc\nCOLLECTOR_ON = gc.isenabled()\n"
        "class Made:\n    pass\nMADE = Made()\n\ndef agent(text):\n    return text\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-c", PREPARED, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=scaled(120),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "on_during_import": False,
        "on_after": True,
        "made_in_oldest": True,
        "failed": [],
    }


TOLD_PLACES = """
import json, sys
from tenxeval_tui.evaluation.provenance import git
from tenxeval_tui.runs.early_agent import EarlyAgent
from tenxeval_tui.runs.spare_start import _started_on

_started_on(sys.stdin.readline(), EarlyAgent())
print(json.dumps(sorted(str(folder) for folder in git._early)))
"""


def test_a_spare_worker_told_its_agent_starts_the_git_state_of_its_eval_sets(
    project: Path,
) -> None:
    """The prepare line names the eval set paths of the command line: the worker starts
    their git commands there, beside the agent's import, not once its plan comes (its
    first case waited for them, issue #38)."""
    plan = _one_case_plan(project, project / "run.journal.jsonl")
    told, env = plan.told_spare(), plan.worker_env()
    assert told is not None
    eval_set = plan.eval_sets[0]
    done = subprocess.run(
        [sys.executable, "-c", TOLD_PLACES],
        input=prepare_line(told, env, [str(eval_set), "not/a/place/x.json"]),
        cwd=project,
        capture_output=True,
        timeout=scaled(60),
    )
    assert done.returncode == 0, done.stderr
    started = json.loads(done.stdout)
    assert str(eval_set.resolve().parent) in started
