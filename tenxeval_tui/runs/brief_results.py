"""Brief ``case_end`` lines, for a reader that shows a finished case by its verdict alone.

Every finished case reaches the worker's reader twice: in the journal (the whole result,
which the reports are made from) and on its ``case_end`` protocol line. The workbench's
live view, the ``--watch`` session and a library's own run display read the whole result
there (its response, its token usage, its turns); ``tenxeval-tui run``'s parent reads only
the verdict (its progress: pass, fail or error, the case's ids and time, the failed
criteria's scores; its bookkeeping: which case ended). A plan whose ``case_end`` is
``"brief"`` (:class:`~tenxeval_tui.runs.plan.RunPlan`) gets lines of :data:`BRIEF_RESULT`
only: a fifth of the bytes of a small case's line, made in a quarter of the time, read
back in less.

The parent asks for them only when every observer it feeds says it reads no more
(:func:`reads_brief_results`: an observer's class sets ``reads_brief_results = True``); an
observer that does not say so (a custom display's, the variants' table) gets the lean line
as before. Once the worker's journal fails, its lines are lean again: the cases the journal
could not keep come from the stream (:mod:`~tenxeval_tui.runs.journal_guard`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult
from tenxeval_tui.runs.case_end_line import encoded_case_end

BRIEF_CRITERION = {"criterion": True, "score": True, "passed": True, "threshold": True}
BRIEF_RESULT: dict[str, Any] = {
    "eval_id": True,
    "passed": True,
    "criterion_results": {"__all__": {**BRIEF_CRITERION, "error": True}},
    "duration_seconds": True,
    "error": True,
    "metadata": {EVAL_SET_ID_KEY: True},
}
"""What a brief ``case_end`` line holds of a result (pydantic's ``include``): its ids, its
verdict, its time and error, each criterion's name, score, threshold, verdict and error."""


def reads_brief_results(observers: Iterable[object]) -> bool:
    """Whether every one of ``observers`` reads only :data:`BRIEF_RESULT` of a finished
    case (its class says so: ``reads_brief_results = True``)."""
    return all(getattr(observer, "reads_brief_results", False) is True for observer in observers)


def _finite_brief(result: EvalCaseResult) -> bool:
    """Whether the floats of ``result``'s brief line are finite: pydantic's JSON writes a
    NaN or an infinity as ``null``, which the reader could not take for a float."""
    if not math.isfinite(result.duration_seconds):
        return False
    return all(
        math.isfinite(c.score) and math.isfinite(c.threshold) for c in result.criterion_results
    )


def brief_case_end_line(result: EvalCaseResult) -> str | None:
    """The brief ``case_end`` line of ``result`` with its newline; ``None`` when it cannot
    be made so (a non-finite float, text pydantic's JSON cannot write, an eval set id that
    is not text): the caller writes the lean line instead."""
    if not _finite_brief(result) or type(result.metadata.get(EVAL_SET_ID_KEY, "")) is not str:
        return None
    return encoded_case_end(result, include=BRIEF_RESULT)


__all__ = ["BRIEF_RESULT", "brief_case_end_line", "reads_brief_results"]
