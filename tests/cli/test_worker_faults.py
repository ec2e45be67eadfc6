"""`tenxeval-tui run` with agents that break their worker, through the real console script
(one worker child, and `--workers 2`: real worker processes).

- every worker dying never drops a case: the cases left end as errors;
- an agent that kills its worker takes no other case down;
- a tool integer too long for JSON readers gives the case a clear outcome, no hang;
- an agent blocking its event loop is stopped by `--timeout` from outside, the rest run;
- a tool thread still running after its case timed out does not keep `run` from exiting;
- SIGTERM (or SIGKILL) of `run` leaves no process of the run behind;
- `workers` is bounded (a settings error: in-process), and capped at the cases there are.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet, ToolCall
from tests.cli.conftest import InProcess
from tests.waiting import scaled, wait_sync

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"
POOLS = [pytest.param([], id="one-worker"), pytest.param(["--workers", "2"], id="workers-2")]

AGENT = """
import asyncio, os, signal, time
from pathlib import Path

from tenxeval_tui.evaluation import Trace

if os.environ.get("LOADS_ALLOWED"):  # a replacement worker cannot load past this many
    loads = Path("loads.txt")
    count = len(loads.read_text()) if loads.exists() else 0
    loads.write_text("x" * (count + 1))
    if count >= int(os.environ["LOADS_ALLOWED"]):
        raise ImportError("the agent cannot load any more")


def big(n):
    return n


async def agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", response=message)
    if message.startswith("kill"):
        Path(f"pid-{os.getpid()}").touch()
        os.kill(os.getpid(), signal.SIGKILL)
    if message.startswith("block"):
        Path("blocking").touch()
        time.sleep(3600)  # a sync call on the event loop: no timeout can fire
    if message.startswith("thread"):
        await asyncio.to_thread(time.sleep, 3600)
    if message.startswith("bigint"):
        await trace.tool("big", {"n": 1}, fn=lambda n: 10**5000)
    if message.startswith("bigarg"):
        trace.record_tool("big", {"n": -(10**4400), "raw": b"\\xff\\xfe"}, result=1)
    if message.startswith("bytes"):  # not UTF-8: the recording keeps their str
        await trace.tool("echo", {"raw": b"\\xff\\xfe"}, fn=lambda raw: len(raw))
    if message.startswith("slow"):
        await asyncio.sleep(float(message.split()[1]))
    return message
"""


def make_project(root: Path, messages: list[str], tools: dict[str, str] | None = None) -> Path:
    (root / "hostile.py").write_text(AGENT)
    cases = []
    for i, text in enumerate(messages):
        case = EvalCase.single_turn(f"c{i}", text, text)
        if tools and text in tools:
            case.conversation[0].expected_tool_trajectory = [ToolCall(name=tools[text])]
        cases.append(case)
    EvalSet(eval_set_id="hostile", eval_cases=cases).to_file(root / "h.evalset.json")
    return root


def command(*extra: str) -> list[str]:
    return [
        str(SCRIPT),
        "run",
        "--agent",
        "hostile:agent",
        "h.evalset.json",
        "--no-html",
        "--output-dir",
        "out",
        *extra,
    ]


def environment(**extra: str) -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **extra}


def run(root: Path, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The timeout is a hang detector: every run here ends within seconds when it works.
    return subprocess.run(
        command(*extra),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=scaled(180),
        env=environment(**env),
    )


def results(root: Path) -> dict[str, dict[str, object]]:
    (path,) = sorted((root / "out").glob("*.json"))
    report = json.loads(path.read_text())
    return {str(r["eval_id"]): r for r in report["results"]}


def test_when_every_worker_dies_their_cases_end_as_errors(tmp_path: Path) -> None:
    # Two workers load; every case kills its worker; the replacements cannot load.
    root = make_project(tmp_path, ["kill a", "kill b", "kill c", "kill d", "kill e"])
    done = run(root, "--workers", "2", "--concurrency", "2", LOADS_ALLOWED="2")
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert sorted(found) == ["c0", "c1", "c2", "c3", "c4"]  # none dropped
    assert all(r["error"] for r in found.values())
    never = [r for r in found.values() if str(r["error"]).startswith("the case never ran")]
    assert never, found
    for result in never:
        error = str(result["error"])
        assert "every worker died (worker " in error
        # The error names the last death: a replacement that could not load, or (when the
        # last replacement came up after the last case was handed out) a worker its case
        # killed. Which one is last depends on the scheduling.
        assert (
            "'s replacement could not load: " in error and "the agent cannot load any more" in error
        ) or "killed by signal 9 (SIGKILL)" in error, error
    assert "FAILED: 0/5 passed, 0 failed, 5 errored" in done.stdout
    assert "Traceback" not in done.stderr


def test_an_agent_that_kills_its_worker_takes_no_other_case_down(tmp_path: Path) -> None:
    messages = ["slow 1", "kill x", "slow 0.5", "a", "b", "slow 0.5", "c", "d"]
    root = make_project(tmp_path, messages)
    done = run(root, "--workers", "2", "--concurrency", "4")
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert len(found) == 8
    assert {eval_id for eval_id, r in found.items() if not r["passed"]} == {"c1"}
    assert "the agent's process died while this case ran" in str(found["c1"]["error"])
    assert len(list(root.glob("pid-*"))) == 2  # it ran, and was retried once, alone
    assert "FAILED: 7/8 passed, 0 failed, 1 errored" in done.stdout


@pytest.mark.parametrize("pool", POOLS)
def test_an_integer_too_long_for_json_readers_in_a_tool_call_is_recorded_as_a_note(
    tmp_path: Path, pool: list[str]
) -> None:
    root = make_project(
        tmp_path,
        ["before", "bigint", "bigarg", "bytes", "after"],
        {"bigint": "big", "bigarg": "big", "bytes": "echo"},
    )
    done = run(root, *pool)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    found = results(root)
    assert all(r["passed"] for r in found.values())
    (result,) = found["c1"]["actual_tool_calls"]  # type: ignore[misc]
    assert result["result"] == "<an integer of about 5001 digits: more than 4300, not recorded>"
    (call,) = found["c2"]["actual_tool_calls"]  # type: ignore[misc]
    assert call["args"] == {
        "n": "<an integer of about 4401 digits: more than 4300, not recorded>",
        "raw": "b'\\xff\\xfe'",  # bytes: their str, never decoded
    }
    (echo,) = found["c3"]["actual_tool_calls"]  # type: ignore[misc]
    assert (echo["args"], echo["result"]) == ({"raw": "b'\\xff\\xfe'"}, 2)


@pytest.mark.parametrize("pool", POOLS)
def test_an_agent_blocking_its_event_loop_is_stopped_by_timeout_and_the_rest_run(
    tmp_path: Path, pool: list[str]
) -> None:
    root = make_project(tmp_path, ["a", "block", "b", "c", "d"])
    done = run(root, "--timeout", "2", "--concurrency", "2", *pool)
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert sorted(found) == ["c0", "c1", "c2", "c3", "c4"]
    assert [eval_id for eval_id, r in found.items() if not r["passed"]] == ["c1"]
    error = str(found["c1"]["error"])
    assert error.startswith("timed out after 2s: the agent never gave control back")
    assert found["c1"]["metadata"]["error_info"]["error_type"] == "Timeout"  # type: ignore[index]
    assert "FAILED: 4/5 passed, 0 failed, 1 errored" in done.stdout
    assert "partial" not in done.stdout
    assert not list((root / "out").glob("*.journal.jsonl"))  # a whole run: no journal kept


@pytest.mark.parametrize("pool", POOLS)
def test_a_tool_thread_still_running_after_its_case_timed_out_does_not_keep_run_alive(
    tmp_path: Path, pool: list[str]
) -> None:
    root = make_project(tmp_path, ["a", "thread", "b"])
    done = run(root, "--timeout", "1", *pool)  # before the fix: waits 300 s for the thread
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert str(found["c1"]["error"]).startswith("timed out after 1s (turn 1 of 1)")
    assert found["c0"]["passed"] and found["c2"]["passed"]


def processes_with(mark: str) -> list[int]:
    """The processes whose environment holds ``TENXEVAL_TEST_MARK=mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone, or not ours to read
            continue
        if f"TENXEVAL_TEST_MARK={mark}".encode() in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_run_killed_while_its_agent_blocks_leaves_no_process_behind(
    tmp_path: Path, pool: list[str], how: signal.Signals
) -> None:
    root = make_project(tmp_path, ["a", "block", "b"])
    mark = uuid.uuid4().hex
    cli = subprocess.Popen(
        command("--concurrency", "1", *pool),
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(TENXEVAL_TEST_MARK=mark),
    )
    try:
        wait_sync(lambda: (root / "blocking").exists(), 120, "the agent blocks")
        assert len(processes_with(mark)) >= 2  # run, its worker (and the pool's)
        cli.send_signal(how)
        out, err = cli.communicate(timeout=scaled(60))
        wait_sync(lambda: not processes_with(mark), 30, "every process of the run ended")
    finally:
        if cli.poll() is None:
            cli.kill()
        for pid in processes_with(mark):
            os.kill(pid, signal.SIGKILL)
    if how == signal.SIGTERM:  # asked to stop: the finished case is reported
        assert cli.returncode == 130, out + err
        assert "Traceback" not in err
        assert "interrupted: writing the report of the finished cases" in err
        assert results(root)["c0"]["passed"] is True
    else:
        assert cli.returncode == -signal.SIGKILL


@pytest.mark.parametrize("pool", [[], ["--workers", "40"]], ids=["setting", "flag"])
def test_workers_are_capped_at_the_cases_and_bounded(
    tmp_path: Path, pool: list[str], in_process: InProcess
) -> None:
    root = make_project(tmp_path, ["block"])
    mark = uuid.uuid4().hex
    if not pool:  # a settings error: no worker starts, so in-process through the entry point
        (root / "pyproject.toml").write_text("[tool.tenxeval]\nworkers = 99999999999999999999\n")
        done = in_process(root, *command()[1:])
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.strip() == (
            f"tenxeval-tui run: {root / 'pyproject.toml'} [tool.tenxeval] workers: "
            "99999999999999999999 is more than 1024, the most workers a run can have"
        )
        return
    cli = subprocess.Popen(
        command("--timeout", "600", *pool),
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(TENXEVAL_TEST_MARK=mark),
    )
    try:
        wait_sync(lambda: (root / "blocking").exists(), 120, "the agent blocks")
        # run, its worker child and one worker process: one case needs no more.
        assert len(processes_with(mark)) == 3
    finally:
        cli.kill()
        cli.communicate()
        wait_sync(lambda: not processes_with(mark), 30, "every process of the run ended")
