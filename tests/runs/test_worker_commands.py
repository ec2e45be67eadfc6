"""The worker's stdin commands (stop one case, end its tool call) and their acks; the
command that resumes a stopped run."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.case_control import StopMode
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.resume import plan_resume_command, resume_argv
from tenxeval_tui.runs.worker_commands import (
    apply_command,
    end_tool_call_command,
    listen,
    merged_ack,
    stop_case_command,
)
from tests.waiting import wait_async


class Runner:
    """Records what the commands asked; ``rome`` of set ``s`` is the one running case."""

    def __init__(self) -> None:
        self.stopped: list[tuple[str, str, StopMode]] = []

    def stop_case(self, eval_set_id: str, eval_id: str, mode: StopMode = StopMode.CANCEL) -> bool:
        self.stopped.append((eval_set_id, eval_id, mode))
        return (eval_set_id, eval_id) == ("s", "rome")

    def end_tool_calls(self, eval_set_id: str, eval_id: str) -> list[str]:
        return ["lookup"] if (eval_set_id, eval_id) == ("s", "rome") else []


def test_commands_reach_the_runner_and_are_acknowledged() -> None:
    runner = Runner()
    ack = apply_command(runner, stop_case_command("s", "rome", score=True))
    assert runner.stopped == [("s", "rome", StopMode.SCORE)]
    assert ack == {
        "type": "worker_ack",
        "command": "stop_case",
        "eval_set_id": "s",
        "eval_id": "rome",
        "ok": True,
        "score": True,
    }
    missing = apply_command(runner, stop_case_command("s", "paris"))
    assert missing is not None and missing["ok"] is False
    assert apply_command(runner, end_tool_call_command("s", "rome"))["tool_calls"] == ["lookup"]  # type: ignore[index]
    assert apply_command(runner, {"type": "reboot"}) is None


async def test_listen_reads_lines_and_carries_them_out_on_the_loop() -> None:
    runner = Runner()
    acks: list[dict[str, object]] = []
    stream = io.StringIO(
        'not json\n{"type": "end_tool_call", "eval_set_id": "s", "eval_id": "rome"}\n'
    )
    listen(runner, acks.append, asyncio.get_running_loop(), stream)
    await wait_async(lambda: acks, lambda: asyncio.sleep(0.01), what="the ack")
    assert acks[0]["tool_calls"] == ["lookup"]


def test_acks_of_several_workers_merge_into_one() -> None:
    stop = stop_case_command("s", "rome", score=True)
    stopped = merged_ack(stop, [{"ok": False}, {"ok": True, "ask": 3}])
    assert stopped == {
        "type": "worker_ack",
        "command": "stop_case",
        "eval_set_id": "s",
        "eval_id": "rome",
        "ok": True,
        "score": True,
    }
    assert merged_ack(stop, [])["ok"] is False  # running nowhere
    end = end_tool_call_command("s", "rome")
    both = merged_ack(end, [{"tool_calls": ["a"]}, {"tool_calls": ["b", "c"]}, {}])
    assert both["tool_calls"] == ["a", "b", "c"] and "ok" not in both


async def test_listen_hands_commands_to_a_router_that_answers_later() -> None:
    class Pool:
        def __init__(self) -> None:
            self.asked: list[dict[str, object]] = []

        def command(self, data: dict[str, object], emit: Any) -> None:
            self.asked.append(data)
            asyncio.get_running_loop().call_soon(emit, {"answered": data["eval_id"]})

    pool, acks = Pool(), list[dict[str, object]]()
    stream = io.StringIO(
        '{"type": "batch"}\n{"type": "stop_case", "eval_set_id": "s", "eval_id": "x"}\n'
    )
    listen(pool, acks.append, asyncio.get_running_loop(), stream)
    await wait_async(lambda: acks, lambda: asyncio.sleep(0.01), what="the routed ack")
    assert acks == [{"answered": "x"}] and [d["type"] for d in pool.asked] == ["stop_case"]


def test_resume_argv_replaces_an_earlier_resume() -> None:
    argv = ["run", "a.evalset.json", "--resume", "old.jsonl", "--concurrency", "2"]
    assert resume_argv(argv, Path("new.jsonl")) == [
        "run",
        "a.evalset.json",
        "--concurrency",
        "2",
        "--resume",
        "new.jsonl",
    ]


def test_the_run_views_plan_resumes_with_its_files_agent_cases_and_journal(tmp_path: Path) -> None:
    plan = RunPlan(
        agent="bot:agent",
        eval_sets=[tmp_path / "evals" / "a.evalset.json"],
        only={str(tmp_path / "evals" / "a.evalset.json"): ["c2", "c1"]},
        selection=CaseSelection(tags=("smoke",), every_tag=False),
        output_dir=tmp_path / "reports",
        journal=tmp_path / "reports" / ".journal" / "run-1.jsonl",
    )
    assert plan_resume_command(plan, tmp_path) == (
        "tenxeval-tui run evals/a.evalset.json --agent bot:agent --case c1 --case c2 "
        "--tags smoke --output-dir reports --resume reports/.journal/run-1.jsonl"
    )
    assert plan_resume_command(plan.model_copy(update={"journal": None})) is None
    # the run view's filter ids are the plan's selection (over every file), not its `only`
    filtered = plan.model_copy(
        update={"only": {}, "selection": CaseSelection(eval_ids=("c3",), every_tag=False)}
    )
    assert plan_resume_command(filtered, tmp_path) == (
        "tenxeval-tui run evals/a.evalset.json --agent bot:agent --case c3 "
        "--output-dir reports --resume reports/.journal/run-1.jsonl"
    )
