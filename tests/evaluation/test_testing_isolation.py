"""The pytest helpers run agents in a child process: a hostile agent fails its test, not pytest.

Each check runs pytest itself in a subprocess on a generated project, with an agent that
ends its process (``os._exit(7)``, SIGKILL, a segfault), leaves a non-daemon thread
behind, or raises ``SystemExit`` / ``KeyboardInterrupt``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalSetBuilder
from tests.waiting import scaled, wait_sync

pytestmark = pytest.mark.slow

AGENT = """
import ctypes, os, signal, threading, time

CALLS = []


async def agent(message: str, trace) -> str:
    CALLS.append(message)
    if message == "exit 7":
        os._exit(7)
    if message == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if message == "segfault":
        ctypes.string_at(0)
    if message == "thread":
        threading.Thread(target=time.sleep, args=(3600,)).start()  # not a daemon
    if message == "sys.exit":
        raise SystemExit(3)
    if message == "ctrl-c":
        raise KeyboardInterrupt
    return "fine"
"""

HEADER = """
import json
import pytest
from hostile_agent import CALLS, agent
from tenxeval_tui.evaluation import (
    AgentEvaluator, EvalConfig, create_eval_app, eval_test, parametrize_eval_cases, run_eval,
)
from tenxeval_tui.evaluation.isolation import AgentProcessDied

CONFIG = EvalConfig.default()
CONFIG.max_concurrency = 1  # one case after the other: which ones finished is known
"""

HOSTILE = ("exit 7", "sigkill", "segfault", "thread", "sys.exit", "ctrl-c")


def _name(message: str) -> str:
    return message.replace(" ", "_").replace(".", "_").replace("-", "_")


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project holding the hostile agent and, for each hostile message, an eval set of
    three cases: ``before`` (passes), ``hostile`` and ``after``; ``calm`` has two plain ones."""
    (pytester.path / "hostile_agent.py").write_text(AGENT, encoding="utf-8")
    (pytester.path / "evals").mkdir()
    for message in HOSTILE:
        (
            EvalSetBuilder(_name(message))
            .add_case("hello", "fine", case_id="before")
            .add_case(message, "fine", case_id="hostile")
            .add_case("bye", "fine", case_id="after")
            .save(pytester.path / "evals" / f"{_name(message)}.evalset.json")
        )
    (
        EvalSetBuilder("calm")
        .add_case("hello", "fine", case_id="one")
        .add_case("bye", "fine", case_id="two")
        .save(pytester.path / "evals" / "calm.evalset.json")
    )
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    return pytester


def run_pytest(project: pytest.Pytester, body: str, *args: str) -> pytest.RunResult:
    """pytest in a subprocess (a hard death there never reaches this session) on ``body``;
    it must end within two minutes (a thread left behind must not hold it)."""
    project.makepyfile(test_hostile=HEADER + textwrap.dedent(body))
    return project.runpytest_subprocess("-p", "no:cacheprovider", "-rf", *args, timeout=scaled(120))


def test_eval_test_fails_naming_how_the_agents_process_ended(project: pytest.Pytester) -> None:
    body = "".join(
        f"""
@eval_test("evals/{_name(message)}.evalset.json", config=CONFIG)
async def test_{_name(message)}():
    return create_eval_app(agent)
"""
        for message in HOSTILE
    )
    result = run_pytest(project, body, "--tenxeval-report-dir=reports")
    # The thread the agent left died with its child: that test passed and pytest ended.
    result.assert_outcomes(passed=1, failed=5)
    result.stdout.fnmatch_lines_random(
        [
            "the agent's process died (exited with status 7) while 'hostile' ran: 1 case(s) "
            "of 'exit_7' finished, 1 never ran (evals/exit_7.evalset.json). Failed cases:",
            "  - hostile: ERROR the agent's process died while this case ran (exited with "
            "status 7)",
            "the agent's process died (killed by signal 9 (SIGKILL)) while 'hostile' ran: *",
            "the agent's process died (killed by signal 11 (SIGSEGV)) while 'hostile' ran: *",
            "*- hostile*: ERROR SystemExit: the agent tried to end the process (sys.exit(3))*",
            "*- hostile*: ERROR KeyboardInterrupt (turn 1 of 1)",
        ]
    )
    # An agent's SystemExit or KeyboardInterrupt errs its case only: the others ran.
    assert "1 never ran" not in "\n".join(
        line for line in result.outlines if "test_sys_exit" in line or "test_ctrl_c" in line
    )
    # The partial report of a dead child is written where pytest says, with what finished.
    reports = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in (project.path / "reports").glob("*.json")
    ]
    died = next(r for r in reports if r["eval_set_name"] == "exit_7")
    assert [(c["eval_id"], c["passed"]) for c in died["results"]] == [
        ("before", True),
        ("hostile", False),
    ]
    assert died["metadata"]["partial"] is True
    assert died["metadata"]["not_run"] == ["after"]


def test_run_eval_raises_with_the_partial_report(project: pytest.Pytester) -> None:
    result = run_pytest(
        project,
        """
        async def test_died():
            with pytest.raises(AgentProcessDied) as info:
                await run_eval(*create_eval_app(agent), "evals/exit_7.evalset.json", CONFIG)
            report = info.value.report
            assert [(r.eval_id, r.passed) for r in report.results] == [
                ("before", True), ("hostile", False)
            ]
            assert report.results[1].error == (
                "the agent's process died while this case ran (exited with status 7)"
            )
            assert report.is_partial and report.metadata["not_run"] == ["after"]
            assert info.value.running == ["hostile"]

        async def test_system_exit_is_an_error_of_its_case():
            report = await run_eval(
                *create_eval_app(agent), "evals/sys_exit.evalset.json", CONFIG
            )
            assert [(r.eval_id, r.passed) for r in report.results] == [
                ("before", True), ("hostile", False), ("after", True)
            ]
            assert report.results[1].error.startswith("SystemExit")
        """,
    )
    result.assert_outcomes(passed=2)


def test_parametrize_eval_cases_runs_each_case_in_a_child(project: pytest.Pytester) -> None:
    result = run_pytest(
        project,
        """
        @parametrize_eval_cases("evals/exit_7.evalset.json")
        async def test_case(eval_case):
            app, collector = create_eval_app(agent)
            result = await AgentEvaluator(app, collector, CONFIG).evaluate_case(eval_case)
            assert result.passed, result.error

        @parametrize_eval_cases("evals/sys_exit.evalset.json", cases=["hostile"])
        async def test_exit_raised_by_the_test_itself(eval_case):
            raise SystemExit(4)

        @parametrize_eval_cases("evals/ctrl_c.evalset.json", cases=["hostile"])
        async def test_interrupt_raised_by_the_test_itself(eval_case):
            raise KeyboardInterrupt

        def test_the_session_went_on():
            pass
        """,
    )
    result.assert_outcomes(passed=3, failed=3)
    result.stdout.fnmatch_lines_random(
        [
            "the agent's process died (exited with status 7) while it ran case 'hostile'",
            "SystemExit: 4",
            "(raised in the agent's child process)",
        ]
    )


SIDE_EFFECTS = """
async def test_calls_are_seen_in_this_process():
    await run_eval(*create_eval_app(agent), "evals/calm.evalset.json", CONFIG)
    assert CALLS == ["hello", "bye"]

@pytest.mark.parametrize("isolate", [False])
async def test_isolate_false(isolate):
    await run_eval(*create_eval_app(agent), "evals/calm.evalset.json", CONFIG, isolate=isolate)
    assert CALLS[-2:] == ["hello", "bye"]
"""


def test_the_opt_out_runs_agents_in_pytests_process(project: pytest.Pytester) -> None:
    isolated = run_pytest(project, SIDE_EFFECTS)
    # Isolated, what the agent did in memory stays in its child; isolate=False opts out.
    isolated.assert_outcomes(passed=1, failed=1)
    isolated.stdout.fnmatch_lines(["FAILED *test_calls_are_seen_in_this_process*"])
    run_pytest(project, SIDE_EFFECTS, "--tenxeval-in-process").assert_outcomes(passed=2)
    run_pytest(project, SIDE_EFFECTS, "-o", "tenxeval_isolate=false").assert_outcomes(passed=2)


def test_in_process_an_agents_exit_ends_pytest(project: pytest.Pytester) -> None:
    """What the isolation prevents: the same agent in pytest's own process ends it."""
    result = run_pytest(
        project,
        """
        @eval_test("evals/exit_7.evalset.json", config=CONFIG, isolate=False)
        async def test_exit_7():
            return create_eval_app(agent)

        def test_never_reached():
            pass
        """,
    )
    assert result.ret == 7
    assert not any("passed" in line or "failed" in line for line in result.outlines[-3:])


def test_reports_of_an_isolated_run_load_back(project: pytest.Pytester, tmp_path: Path) -> None:
    result = run_pytest(
        project,
        """
        from tenxeval_tui.evaluation import EvalReport

        async def test_report(tmp_path):
            report = await run_eval(*create_eval_app(agent), "evals/calm.evalset.json", CONFIG)
            assert type(report) is EvalReport
            assert [(r.eval_id, r.passed) for r in report.results] == [
                ("one", True), ("two", True)
            ]
            assert report.results[0].actual_response == "fine"
            again = EvalReport.model_validate_json(report.model_dump_json())
            assert again.model_dump() == report.model_dump()
        """,
    )
    result.assert_outcomes(passed=1)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie no one reaped yet counts as ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


def test_an_agent_never_outlives_a_pytest_killed_outright(project: pytest.Pytester) -> None:
    (project.path / "slow_agent.py").write_text(
        "import os, pathlib, time\n\n"
        "async def agent(message: str, trace) -> str:\n"
        "    pathlib.Path('agent.pid').write_text(str(os.getpid()))\n"
        "    time.sleep(600)\n"
        "    return 'late'\n",
        encoding="utf-8",
    )
    project.makepyfile(
        test_slow=HEADER
        + textwrap.dedent(
            """
            from slow_agent import agent as slow

            @eval_test("evals/calm.evalset.json", config=CONFIG)
            async def test_slow():
                return create_eval_app(slow)
            """
        )
    )
    pytest_process = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_slow.py"],
        cwd=project.path,
        stdout=(project.path / "pytest.out").open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        pid_file = project.path / "agent.pid"
        wait_sync(
            lambda: pid_file.is_file() and pid_file.read_text(),
            timeout=scaled(60),
            what="the agent's pid file",
        )
        agent_pid = int(pid_file.read_text())
        assert agent_pid != pytest_process.pid and not _gone(agent_pid)
    finally:
        pytest_process.kill()  # as a CI timeout or the OOM killer would
        pytest_process.wait()
    wait_sync(lambda: _gone(agent_pid), timeout=30, what="the agent's child process ending")
