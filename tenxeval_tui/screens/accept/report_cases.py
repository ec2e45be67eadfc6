"""Accept the actual of several cases at once, from the report browser (``A``).

Which cases: those selected in the report's case table (``space``, ``*``), each with
the parts the dialog lets the user choose once for all (reply, tool calls, node
order); with none selected, every failed case of the report whose only failing
criteria compare the reply with the expected reply
(:func:`~tenxeval_tui.authoring.accept_many.only_reply_failed`), which gets its run's
reply as its expected reply. A case with repeats gives its representative repeat. The
dialog, the refusals and the write (one undo step of the editor's document, one atomic
save) are :func:`~tenxeval_tui.screens.accept.batch.accept_batch`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from tenxeval_tui.authoring.accept_many import REPLY_CRITERIA, only_reply_failed
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.accept.batch import Batch, accept_batch, refuse
from tenxeval_tui.screens.accept.one_case import accepted_run

ACCEPT_MANY_KEY = Binding(
    "A",
    "accept_many",
    "Accept several",
    show=False,  # the footer is full: in the help and the command palette
    tooltip="Accept the actual of the selected cases (space selects); with none selected, "
    "the reply of every case that failed on its reply alone (asks first)",
)


def reply_only_failures(document: ReportDocument) -> list[EvalCaseResult]:
    """The run to accept of every failed case of ``document`` that failed on its reply
    alone, in the report's order."""
    runs: list[EvalCaseResult] = []
    for row in document.rows:
        if row.status != "failed" or not row.failed_criteria:
            continue
        if not set(row.failed_criteria) <= REPLY_CRITERIA:
            continue  # the row says enough to leave it out without reading the case
        result = document.case(row.index)
        if only_reply_failed(result):
            runs.append(accepted_run(result, None))
    return runs


def chosen_runs(document: ReportDocument, indexes: Iterable[int]) -> list[EvalCaseResult]:
    """The run to accept of each case of ``document`` at ``indexes``, in the report's order."""
    return [accepted_run(document.case(i), None) for i in sorted(set(indexes))]


async def accept_replies(screen: Screen[Any], document: ReportDocument) -> bool:
    """Ask, then accept the reply of every case of ``document`` that failed on it alone;
    ``True`` when the file was written. Must run in a worker (it waits for the dialog)."""
    if not document.complete:
        return refuse(screen, "The report is still loading: try again in a moment.")
    try:
        runs = reply_only_failures(document)
    except EvalFileError as exc:
        return refuse(screen, str(exc.first))
    if not runs:
        return refuse(screen, "No case of this report failed on its reply alone.")
    batch = Batch(document.eval_set_id, runs, document.timestamp, chosen=False)
    return await accept_batch(screen, batch)


async def accept_chosen(
    screen: Screen[Any], document: ReportDocument, indexes: Iterable[int]
) -> bool:
    """Ask, then accept the actual of the cases of ``document`` at ``indexes`` (the parts
    the user chooses); ``True`` when the file was written. Must run in a worker."""
    try:
        runs = chosen_runs(document, indexes)
    except EvalFileError as exc:
        return refuse(screen, str(exc.first))
    if not runs:
        return refuse(screen, "No case is selected.")
    batch = Batch(document.eval_set_id, runs, document.timestamp, chosen=True)
    return await accept_batch(screen, batch)


__all__ = [
    "ACCEPT_MANY_KEY",
    "accept_chosen",
    "accept_replies",
    "chosen_runs",
    "reply_only_failures",
]
