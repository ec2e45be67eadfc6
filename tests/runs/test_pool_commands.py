"""The front end's commands (stop one case, end its tool call) reach the pooled worker that
runs the case: the worker child runs 2 worker processes (or 2 Ray actors), its stdin gets
the commands the run view sends, and its stdout the same ``worker_ack`` lines and results
one process gives."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.case_control import CANCELLED
from tenxeval_tui.evaluation.config.presets import preset_by_name
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.worker_commands import end_tool_call_command, stop_case_command
from tests.waiting import scaled, wait_sync

pytestmark = pytest.mark.many_processes

# "hold-..." cases call `lookup`, which says so (a file) and then waits until ended.
HOLDING_AGENT = """
import asyncio
from pathlib import Path

HERE = Path(__file__).parent


async def lookup(q):
    (HERE / ("in-" + q)).touch()
    await asyncio.Event().wait()
    return "never"


async def agent(message, trace):
    trace.node("MAIN", tool_calls=["lookup"])
    if message.startswith("hold"):
        try:
            await trace.tool("lookup", {"q": message}, lookup)
        except TimeoutError:  # ended from the front end
            trace.node("MAIN", response="timed out")
            return "timed out"
    trace.node("MAIN", response=message)
    return message
"""

MESSAGES = ["hold-stop", "hold-score", "m2", "hold-tool", "m4", "m5"]
HELD = ("hold-stop", "hold-score", "hold-tool")


class Child:
    """The worker child, its stdout lines read as they come."""

    def __init__(self, plan: RunPlan, cwd: Path) -> None:
        self.stderr = cwd / "stderr.txt"  # a file: an unread pipe could fill and block it
        with self.stderr.open("wb") as stderr:
            self.process = subprocess.Popen(
                plan.command(),
                cwd=cwd,
                env=plan.worker_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
        self.lines: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if raw.strip():
                self.lines.append(json.loads(raw))

    def finish(self) -> int:
        """Its exit status once its stdin is closed, with every line it wrote read (the
        process can end before the reader has taken its last lines from the pipe)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=scaled(120))
        self._reader.join(timeout=scaled(30))
        assert not self._reader.is_alive(), "the child's stdout was not read to its end"
        return code

    def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        self.process.stdin.flush()

    def acks(self, eval_id: str) -> list[dict[str, Any]]:
        return [
            a for a in list(self.lines) if a["type"] == "worker_ack" and a["eval_id"] == eval_id
        ]

    def ended(self, eval_id: str) -> dict[str, Any] | None:
        for line in list(self.lines):
            if line["type"] == "case_end" and line["result"]["eval_id"] == eval_id:
                return line["result"]  # type: ignore[no-any-return]
        return None


def _plan(folder: Path, backend: str) -> RunPlan:
    (folder / "holding_agent.py").write_text(HOLDING_AGENT)
    cases = [EvalCase.single_turn(f"c{i}", m, m) for i, m in enumerate(MESSAGES)]
    cases[0].metadata["repeats"] = 2  # stopped in its first repeat: the second never runs
    EvalSet(eval_set_id="holds", eval_cases=cases).to_file(folder / "h.evalset.json")
    config = preset_by_name("quick_check")
    # 3 a worker. A worker asks for its next batch as soon as its queue is empty, its
    # slots busy or not: whichever worker gets the first batch (c0, c1, c2) runs it at
    # once, and the next (c3, ...) runs on the other worker, or there once c2 is done.
    config.max_concurrency, config.parallel = 6, True  # parallel: False by default
    config.reporter.enabled = False
    return RunPlan(
        agent="holding_agent:agent",
        agent_explicit=True,
        eval_sets=[folder / "h.evalset.json"],
        config=config,
        search_path=folder,
        workers=2,
        backend=backend,
    )


def stop_and_end_in_pooled_workers(folder: Path, backend: str) -> None:
    child = Child(_plan(folder, backend), folder)
    try:
        held = [folder / f"in-{m}" for m in HELD]
        wait_sync(lambda: all(p.exists() for p in held), timeout=120, what="the held tool calls")
        # A finished case, and one that does not exist: answered at once, not running.
        wait_sync(lambda: child.ended("c2") is not None, what="c2's end")
        child.send(stop_case_command("holds", "c2"))
        child.send(end_tool_call_command("holds", "nope"))
        wait_sync(lambda: child.acks("c2") and child.acks("nope"), what="the acks of c2, nope")
        assert child.acks("c2")[0]["ok"] is False
        assert child.acks("nope")[0]["tool_calls"] == []

        child.send(end_tool_call_command("holds", "c3"))
        wait_sync(lambda: child.acks("c3"), what="the end_tool_call ack")
        assert child.acks("c3") == [
            {
                "type": "worker_ack",
                "command": "end_tool_call",
                "eval_set_id": "holds",
                "eval_id": "c3",
                "tool_calls": ["lookup"],
            }
        ]
        child.send(stop_case_command("holds", "c0"))
        child.send(stop_case_command("holds", "c1", score=True))
        wait_sync(lambda: child.acks("c0") and child.acks("c1"), what="the stop acks")
        assert child.acks("c0")[0]["ok"] is True and child.acks("c0")[0]["score"] is False
        assert child.acks("c1")[0]["ok"] is True and child.acks("c1")[0]["score"] is True
        assert "ask" not in child.acks("c0")[0]  # the driver's own numbering stays inside
        assert child.finish() == 0, child.stderr.read_text()[-2000:]
    finally:
        if child.process.poll() is None:
            child.process.kill()
    stopped, scored, ended = child.ended("c0"), child.ended("c1"), child.ended("c3")
    assert stopped is not None and stopped["metadata"]["error_info"]["error_type"] == CANCELLED
    assert "cancelled by the user" in stopped["error"]
    repeats = [(r["error"] or "")[:21] for r in stopped["repeat_results"]]
    assert repeats == ["cancelled by the user"] * 2, stopped["repeat_results"]
    assert scored is not None and scored["error"] is None
    assert scored["metadata"]["stopped_early"] is True and scored["criterion_results"]
    assert ended is not None and ended["error"] is None
    assert ended["actual_response"] == "timed out"  # the agent saw a timeout and went on
    for eval_id in ("c2", "c4", "c5"):
        other = child.ended(eval_id)
        assert other is not None and other["error"] is None, other
    assert child.lines[-1]["type"] == "worker_reports" and not child.lines[-1]["partial"]
    # Each command was answered once.
    assert [len(child.acks(f"c{i}")) for i in range(4)] == [1, 1, 1, 1]


def test_stop_and_end_tool_call_reach_the_worker_process_running_the_case(
    tmp_path: Path,
) -> None:
    stop_and_end_in_pooled_workers(tmp_path, "process")


def test_stop_and_end_tool_call_reach_the_ray_actor_running_the_case(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")
    stop_and_end_in_pooled_workers(tmp_path, "ray")
