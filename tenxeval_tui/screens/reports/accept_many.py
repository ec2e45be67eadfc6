"""Accept the replies of several cases at once, from the report browser.

Which cases: every failed case of the report whose only failing criteria compare the
reply with the expected reply (:func:`~tenxeval_tui.authoring.accept_many.only_reply_failed`);
each gets its run's reply (a case with repeats: its representative repeat's) as its
expected reply. One dialog lists them with what changes (and the cases left out, with
why); then, in the workbench, the editor writes them all as one undo step of its
document and one atomic save (``ctrl+z`` there takes them all back). In another app the
file is changed through a document of its own. Refused, saying why, when the eval set
file was written after the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from textual.binding import Binding
from textual.screen import Screen

from tenxeval_tui.authoring.accept_actual import changed_since_run
from tenxeval_tui.authoring.accept_many import (
    REPLY_CRITERIA,
    REPLY_ONLY,
    apply_accept_many,
    only_reply_failed,
    plan_accept_many,
)
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.editor.case_actions import find_eval_set_file
from tenxeval_tui.screens.reports.accept_actual import accepted_run

ACCEPT_MANY_KEY = Binding(
    "A",
    "accept_replies",
    "Accept replies",
    show=False,  # the footer is full: in the help and the command palette
    tooltip="Accept the actual reply of every case that failed on its reply alone (asks first)",
)


@runtime_checkable
class ManyAccepter(Protocol):
    """An app that accepts several runs into their cases through its editor (the workbench)."""

    async def accept_actual_many(
        self, path: Path, runs: list[EvalCaseResult], parts: tuple[str, ...]
    ) -> str | None:
        """Write each run's ``parts`` as its case's expectations in ``path`` (one undo
        step); why not, or ``None`` when saved."""
        ...


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


async def accept_replies(screen: Screen[Any], document: ReportDocument) -> bool:
    """Ask, then accept the reply of every case of ``document`` that failed on it alone;
    ``True`` when the file was written. Must run in a worker (it waits for the dialog)."""
    app = screen.app

    def refuse(message: str) -> bool:
        app.notify(message, title="Not accepted", severity="warning", markup=False, timeout=8)
        return False

    if not document.complete:
        return refuse("The report is still loading: try again in a moment.")
    path = find_eval_set_file(host_of(app).workspace.eval_set_files(), document.eval_set_id)
    if path is None:
        return refuse(f"No eval set {document.eval_set_id!r} in this workspace.")
    try:
        runs = reply_only_failures(document)
        if not runs:
            return refuse("No case of this report failed on its reply alone.")
        if changed_since_run(path, document.timestamp):
            return refuse(
                f"{path.name} changed on disk since this run: its expectations may not be "
                "those the run was scored on. Run the cases again, then accept."
            )
        eval_set = EvalSetDocument.load(path)
        plan = plan_accept_many(eval_set, runs, REPLY_ONLY)
    except (EvalFileError, OSError) as exc:
        return refuse(str(exc.first) if isinstance(exc, EvalFileError) else str(exc))
    if not plan.plans:
        return refuse("Nothing to accept:\n" + plan.summary())
    count = len(plan.plans)
    answer = await app.push_screen_wait(
        ChoiceScreen(
            f"Write the actual reply of {count} case(s) that failed on their reply alone as "
            f"their expected reply in {path.name}? Their tool calls and node order stay.",
            {"accept": f"Accept {count} replies", "cancel": "Cancel"},
            details=plan.details(),
            title="Accept the actual replies",
        )
    )
    if answer != "accept":
        return False
    accepted = [r for r in runs if r.eval_id in {p.eval_id for p in plan.plans}]
    if isinstance(app, ManyAccepter):
        problem = await app.accept_actual_many(path, accepted, REPLY_ONLY)
        if problem is not None:
            return refuse(problem)
        undo = " (one ctrl+z in the editor undoes them all)"
    else:
        try:
            problems = apply_accept_many(eval_set, plan)
        except OSError as exc:
            return refuse(str(exc))
        if problems:
            return refuse("Not saved: " + "; ".join(problems))
        undo = ""
    app.notify(
        f"{count} case(s) of {path.name} now expect this run's reply{undo}: "
        + ", ".join(p.eval_id for p in plan.plans),
        title="Accepted",
        markup=False,
    )
    return True


__all__ = ["ACCEPT_MANY_KEY", "ManyAccepter", "accept_replies", "reply_only_failures"]
