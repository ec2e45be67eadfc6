"""The case deadline as the parent of the process running the case keeps it.

A case's ``timeout`` is enforced inside the process that runs it, on its event loop. An
agent that blocks that loop (a sync agent's ``time.sleep``, a C call that never returns)
keeps the timeout from ever firing, and the run from ever ending. So the process that
started the one running the case keeps the deadline too, on its own clock: the run's
worker child for its pooled workers (:mod:`~tenxeval_tui.runs.case_pool`), ``run`` for its
worker child (:mod:`~tenxeval_tui.runs.deadline_watch`). A case not ended
:data:`GRACE` seconds past its deadline is taken as blocked: its process is killed, the
case ends as timed out (:func:`overdue_result`), and the run carries on with the rest.

The deadline is the start of the case's run (its ``case_start`` line, as the parent reads
it; each next repeat's ``repeat_start``) plus the timeout. Scoring is not under the case's timeout (a judge may take
long: it has its own ``judge_timeout``), so a case the worker is scoring (its ``judging``
event read) has no deadline any more.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from tenxeval_tui.evaluation.dataset import EvalCase
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult

CaseKey = tuple[str, str]
"""A case as its lines name it: (eval set id, eval id)."""
GRACE = 5.0
"""Seconds past a case's deadline before its process is taken as blocked and killed."""
OVERDUE = "Timeout"
"""The ``error_type`` of a case ended by the parent's deadline (the evaluator's own)."""
_JUDGING = b'"judging"'


class CaseDeadlines:
    """When each running case must have ended (``clock`` seconds): the start of its run,
    plus ``timeout``, plus :data:`GRACE`."""

    def __init__(
        self, timeout: float, grace: float = GRACE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.timeout = timeout
        self.grace = grace
        self.clock = clock
        self.due: dict[CaseKey, float] = {}

    def started(self, case: CaseKey) -> None:
        """A run of ``case`` started now (the case, or its next repeat)."""
        self.due[case] = self.clock() + self.timeout + self.grace

    def ended(self, case: CaseKey) -> None:
        """``case`` ended (or is being scored, or went back to the queue): no deadline."""
        self.due.pop(case, None)

    def overdue(self) -> list[CaseKey]:
        """The cases past their deadline, soonest due first."""
        now = self.clock()
        return [case for case, due in sorted(self.due.items(), key=lambda i: i[1]) if due <= now]

    def next_due(self) -> float | None:
        """When the next deadline falls (``clock`` seconds), or ``None``."""
        return min(self.due.values(), default=None)


def judging_case(line: bytes) -> tuple[str, str] | None:
    """``(eval_set_id, eval_id)`` of an event line saying the case is being scored (the
    evaluator's ``judging`` progress event), else ``None``."""
    if _JUDGING not in line:
        return None
    try:
        data = json.loads(line)
        judging = data["event"]["data"]["judging"]
    except (ValueError, KeyError, TypeError):
        return None
    if data.get("type") != "event" or not isinstance(judging, list):
        return None
    return str(data.get("eval_set_id")), str(data.get("eval_id"))


def overdue_result(eval_set_id: str, case: EvalCase, timeout: float, how: str) -> EvalCaseResult:
    """The error result of a case still running past its deadline: it timed out, and the
    process running it was killed (``how`` says which)."""
    return EvalCaseResult(
        eval_id=case.eval_id,
        name=case.name,
        passed=False,
        error=(
            f"timed out after {timeout:g}s: the agent never gave control back (it blocked "
            f"its event loop), so {how} was killed"
        ),
        metadata={
            EVAL_SET_ID_KEY: eval_set_id,
            "error_info": {"error_type": OVERDUE, "killed": how},
            **({"tags": list(case.tags)} if case.tags else {}),
        },
    )


def lost_result(eval_set_id: str, case: EvalCase, why: str) -> EvalCaseResult:
    """The error result of a case handed to workers that all died before it ran."""
    return EvalCaseResult(
        eval_id=case.eval_id,
        name=case.name,
        passed=False,
        error=f"the case never ran: {why}",
        metadata={
            EVAL_SET_ID_KEY: eval_set_id,
            "error_info": {"error_type": "WorkerLost"},
            **({"tags": list(case.tags)} if case.tags else {}),
        },
    )


__all__ = [
    "GRACE",
    "OVERDUE",
    "CaseDeadlines",
    "judging_case",
    "lost_result",
    "overdue_result",
]
