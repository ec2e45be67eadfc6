"""``run`` starts its worker child first and hands it the plan once its checks pass
(runs/spare_worker.py): the child's imports overlap the parent's, an explicit agent is
imported (with the settings' environment) while the parent checks, a usage error leaves
no child behind, and a child whose parent ends before the plan comes exits quietly."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.spare_worker import (
    PLAN_ON_STDIN,
    SpareWorker,
    handover_line,
    spare_command,
    told,
    worker_command,
    worker_environment,
)
from tests.cli.test_run import AGENT, cli, reports
from tests.waiting import scaled, wait_sync

# `tenxeval-tui ARGS...` through its entry point, noting whether pydantic (most of the
# parent's imports) was loaded when the worker child was started.
PROBE = """
import json, sys
seen = []
def hook(event, args):
    if event == "subprocess.Popen" and {"tenxeval_tui.runs.spare_start",
                                        "tenxeval_tui.runs.worker"} & set(args[1]):
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
    # the worker is ended before the run exits; a child it forked (its agent's hash) is
    # killed with it by the kernel, and may take a moment to go
    wait_sync(lambda: _workers_marked(marker) == [], timeout=30, what="every worker gone")


SPARE_COMMANDS = pytest.mark.parametrize(
    "command", [worker_command(PLAN_ON_STDIN), spare_command()], ids=["worker", "spare_start"]
)


@SPARE_COMMANDS
def test_a_spare_worker_whose_stdin_ends_before_a_plan_exits_quietly(command: list[str]) -> None:
    done = subprocess.run(
        command,
        input="",
        capture_output=True,
        text=True,
        timeout=scaled(120),
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@SPARE_COMMANDS
def test_a_spare_worker_runs_the_plan_it_is_handed_with_its_environment(
    project: Path, command: list[str]
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
        command,
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


# `tenxeval-tui ARGS...` through its entry point, its spare worker handed the plan only once
# the agent's module has run (a file it writes at import), or after a while: whether it
# had is noted.
EARLY_PROBE = """
import json, sys, time
from pathlib import Path
from tenxeval_tui.runs.spare_worker import SpareWorker
out, marker, patience, args = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
seen = {}
hand = SpareWorker.hand
def hand_once_imported(self, *given, **named):
    deadline = time.monotonic() + patience
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    seen["imported_before_the_plan"] = marker.exists()
    return hand(self, *given, **named)
SpareWorker.hand = hand_once_imported
from tenxeval_tui.cli.main import main
code = main(args)
out.write_text(json.dumps({"code": code, **seen}))
"""

MARKING_AGENT = """
import os
from pathlib import Path

Path(os.environ["AGENT_MARK"]).write_text(os.environ.get("TENXEVAL_JUDGE_MODEL", "unset"))


async def agent(message, trace):
    return "ok"
"""


def test_the_worker_imports_an_explicit_agent_with_the_settings_env_before_the_plan(
    project: Path,
) -> None:
    (project / "marking_agent.py").write_text(MARKING_AGENT)
    (project / "pyproject.toml").write_text('[tool.tenxeval]\njudge_model = "from-settings"\n')
    (project / "config.json").write_text('{"criteria": {"exact_match": {"threshold": 0.0}}}')
    marker, out = project / "imported", project / "probe.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TENXEVAL_")}
    args = ["run", "--agent", "marking_agent:agent", "--config", "config.json", "-q"]
    done = subprocess.run(
        [sys.executable, "-c", EARLY_PROBE, str(out), str(marker), str(scaled(30)), *args,
         "--case", "order_a100", "--output-dir", "out", "evals/plain.evalset.json"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**env, "AGENT_MARK": str(marker)},
    )  # fmt: skip
    assert json.loads(out.read_text()) == {"code": 0, "imported_before_the_plan": True}, done.stderr
    assert marker.read_text() == "from-settings"  # the settings' environment, at import


def test_an_agent_whose_early_import_fails_is_imported_once_and_its_error_told(
    project: Path,
) -> None:
    (project / "broken_agent.py").write_text(
        "import os\n"
        "with open(os.environ['IMPORTS'], 'a') as f:\n"
        "    f.write('x')\n"
        "raise RuntimeError('broken at import')\n"
    )
    imports = project / "imports.txt"
    done = cli(project, "run", "--agent", "broken_agent:agent", "evals/plain.evalset.json",
               env={"IMPORTS": str(imports)})  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "RuntimeError: broken at import" in done.stderr
    assert imports.read_text() == "x"  # not imported a second time for the plan


def _spare_reading_stdin() -> SpareWorker:
    """A stand-in worker: a process that reads its stdin to its end."""
    return SpareWorker(
        subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.buffer.read()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    )


@pytest.mark.parametrize("differs", ["agent", "env", "nothing"])
def test_a_worker_told_its_agent_is_handed_only_the_plan_it_was_told_for(
    tmp_path: Path, differs: str
) -> None:
    fields = told("a:agent", tmp_path, False, None)
    spare = _spare_reading_stdin()
    spare.prepare(fields, tmp_path)
    plan_fields = {**fields, "agent": "b:agent"} if differs == "agent" else fields
    env = worker_environment(tmp_path)
    if differs == "env":
        env["CHANGED_SINCE"] = "1"
    child = spare.hand("{}", env, plan_fields)
    if differs == "nothing":
        assert child is not None
        assert child.wait(timeout=scaled(30)) == 0  # it read the two lines, then stdin ended
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()
        child.stderr.close()
    else:
        assert child is None  # ended: the run starts a fresh worker
        assert spare.process is None


def test_a_plan_tells_its_spare_worker_only_an_agent_sure_to_run_as_told(tmp_path: Path) -> None:
    path = tmp_path / "a.evalset.json"
    plan = RunPlan(agent="a:agent", agent_explicit=True, eval_sets=[path], search_path=tmp_path)
    assert plan.told_spare() == told("a:agent", tmp_path, None, None)
    for unsure in (
        {"agent_explicit": False},  # an eval set may name its own agent
        {"criteria_modules": ["mine"]},  # imported before the agent
        {"workers": 2},  # the agents are imported by the pool's workers
        {"backend": "ray"},
    ):
        assert plan.model_copy(update=unsure).told_spare() is None, unsure


class _FakeSpare:
    """Stands for a started worker child: notes that it was discarded."""

    def __init__(self, events: list[object]) -> None:
        self.events = events

    def discard(self) -> None:
        self.events.append("discarded")


def _main_events(
    monkeypatch: pytest.MonkeyPatch, project: Path, *args: str
) -> tuple[list[object], _FakeSpare | None]:
    """What ``main(args)`` did in order: the worker started ("spare"), the whole parser
    built ("parser"), the run given its spare (("run", spare)), the spare discarded."""
    cli_main = importlib.import_module("tenxeval_tui.cli.main")  # `cli.main` is the function
    run_command = importlib.import_module("tenxeval_tui.cli.run_command")
    events: list[object] = []
    spare = _FakeSpare(events)
    build_parser = cli_main.build_parser

    def start(cls: type[SpareWorker]) -> _FakeSpare:
        events.append("spare")
        return spare

    def parser() -> object:
        events.append("parser")
        return build_parser()

    def run(args: object, given: object = None) -> int:
        events.append(("run", given))
        return 0

    monkeypatch.chdir(project)
    monkeypatch.setattr(SpareWorker, "start", classmethod(start))
    monkeypatch.setattr(cli_main, "build_parser", parser)
    monkeypatch.setattr(run_command, "run_command", run)
    assert cli_main.main(list(args)) == 0
    return events, spare


def test_a_run_starts_its_worker_first_and_builds_no_whole_parser(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    """``run``'s flags, read to start its worker, are the run's: every command's parser
    (28 ms of the parent's) is not built after them (issue #38)."""
    events, spare = _main_events(
        monkeypatch, project, "run", "--agent", AGENT, "-q", "evals/plain.evalset.json"
    )
    assert events == ["spare", ("run", spare), "discarded"]


def test_a_run_that_wants_no_spare_worker_starts_none_early(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    # --watch runs a worker per change; a missing file is a usage error: no worker first
    for args in (("--watch",), ("missing.evalset.json",)):
        events, _ = _main_events(
            monkeypatch, project, "run", "--agent", AGENT, *args, "evals/plain.evalset.json"
        )
        assert events == [("run", None)]


def test_a_run_tells_its_spare_worker_the_eval_set_paths_its_command_line_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With its agent, the worker is told the paths (made absolute) whose git state it
    starts while it imports the agent (the provenance's, issue #38)."""
    import argparse

    from tenxeval_tui.cli.run_command import _telling

    told: list[tuple[Path, list[str]]] = []

    class Spare:
        def prepare(self, fields: object, search_path: Path, git_places: list[str]) -> None:
            told.append((search_path, list(git_places)))

    monkeypatch.chdir(tmp_path)
    args = argparse.Namespace(
        paths=["evals/a.evalset.json", str(tmp_path / "more")], verbose=False, log_level=None
    )
    tell = _telling(Spare(), args)  # type: ignore[arg-type]
    assert tell is not None
    tell("agent_mod:agent", tmp_path)
    assert told == [(tmp_path, [str(tmp_path / "evals/a.evalset.json"), str(tmp_path / "more")])]
