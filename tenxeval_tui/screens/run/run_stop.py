"""Stopping one case of a run in progress from the run view, and what the worker answers.

The run view asks (:class:`~tenxeval_tui.screens.common.choice.ChoiceScreen`) whether the
selected running case ends cancelled or is scored on what it did so far, or ends its tool
call in flight; the command goes to the worker through
:meth:`~tenxeval_tui.runs.worker_process.WorkerProcess.send`
(:mod:`~tenxeval_tui.runs.worker_commands`), and the worker's ``worker_ack`` answers are
told as notifications. The rest of the run goes on.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.live_run import CaseState, CaseStatus, LiveRun
from tenxeval_tui.runs.worker_commands import (
    END_TOOL_CALL,
    STOP_CASE,
    end_tool_call_command,
    stop_case_command,
)
from tenxeval_tui.runs.worker_process import WorkerProcess

STOP_CHOICES = {
    "cancel_case": "Cancel it",  # not "cancel": esc answers that, and keeps it running
    "score": "Score what it did so far",
    "keep": "Keep it running",
}


END_CHOICES = {"end": "End the call", "wait": "Wait for it"}
"""Ending a tool call cannot be undone (the agent sees a timeout): the run view asks."""


def end_question(state: CaseState) -> str:
    """What the run view asks before ending ``state``'s tool call in flight."""
    return (
        f"End the tool call {inert(state.name or state.eval_id)} is waiting on? The agent "
        "sees it time out, as a real timeout."
    )


def stop_question(state: CaseState) -> str:
    """What the run view asks before stopping ``state``."""
    return f"Stop case {inert(state.name or state.eval_id)}? The rest of the run goes on."


def running_case(run: LiveRun | None, key: str | None) -> CaseState | None:
    """The case ``key`` of ``run`` if it is running now."""
    if run is None or key is None:
        return None
    state = run.cases.get(key)
    return state if state is not None and state.status == CaseStatus.RUNNING else None


async def stop_case(process: WorkerProcess, state: CaseState, *, score: bool) -> bool:
    """Ask the worker to stop ``state``'s case; ``False`` when the worker is gone."""
    return await process.send(stop_case_command(state.eval_set_id, state.eval_id, score=score))


async def end_tool_call(process: WorkerProcess, state: CaseState) -> bool:
    """Ask the worker to end ``state``'s tool calls in flight."""
    return await process.send(end_tool_call_command(state.eval_set_id, state.eval_id))


def unfinished_cases(run: LiveRun) -> list[CaseState]:
    """The cases a stopped run did not finish (never started, or cut short with it; not
    those stopped one by one: they have their result), which "run the rest" runs."""
    ran = (s for s in run.cases.values() if s.status != CaseStatus.CARRIED)
    if run.worker_error is not None and not any(s.result for s in ran):
        return []  # the worker stopped before any case ran (its agent did not load): the
        # rest would stop the same way; `s` runs it again once that is fixed
    return [s for s in run.cases.values() if s.status == CaseStatus.CANCELLED and s.result is None]


def ack_message(run: LiveRun, ack: dict[str, Any]) -> tuple[str, str]:
    """What to tell of one ``worker_ack``: ``(message, severity)``."""
    key = f"{ack.get('eval_set_id', '')}::{ack.get('eval_id', '')}"
    state = run.cases.get(key)
    name = inert(state.name or state.eval_id) if state is not None else inert(key)
    if ack.get("command") == STOP_CASE:
        if not ack.get("ok"):
            return f"{name} was not running any more.", "warning"
        how = "scored on what it did so far" if ack.get("score") else "cancelled"
        return f"{name} stopped: it is {how}; the run goes on.", "information"
    if ack.get("command") == END_TOOL_CALL:
        calls = [inert(str(c)) for c in ack.get("tool_calls") or []]
        if not calls:
            return f"{name} had no tool call in flight.", "warning"
        return f"Ended {', '.join(calls)} of {name}: the agent sees a timeout.", "information"
    return "", "information"


__all__ = [
    "STOP_CHOICES",
    "ack_message",
    "end_tool_call",
    "running_case",
    "stop_case",
    "stop_question",
    "unfinished_cases",
]
