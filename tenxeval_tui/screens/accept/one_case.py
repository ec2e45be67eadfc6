"""Accept actual, from the report browser: a run's reply, tool calls and node order
become its case's expectations in the eval set file.

The flow: find the eval set file in the workspace by the report's eval set id; refuse
when the file was written after the run (its expectations may not be those the run
was scored on); show what changes as a diff of the case's JSON and ask which parts to
accept; then write it through the editor's document model, by asking the host
(:meth:`~tenxeval_tui.screens.common.host.WorkbenchHost.accept_actual`). In the
workbench that is the editor's own document: the editor opens on the case and
``ctrl+z`` there undoes the accept. In another app the file is changed through a
document of its own (one atomic save, the other cases' bytes untouched).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from tenxeval_tui.authoring.accept_actual import changed_since_run, plan_accept
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.actual import PARTS, NotAcceptable
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.settings.workspace import find_eval_set_file

ACCEPT_KEY = Binding(
    "a",
    "accept_actual",
    "Accept actual",
    tooltip="Write what this run did as the case's expectations (asks first, shows the diff)",
)

CHOICES = {
    "all": "Accept reply, tools and nodes",
    "response": "Reply only",
    "tools": "Tools only",
    "nodes": "Nodes only",
    "cancel": "Cancel",
}
"""The dialog's answers (their first letters are the keys: ``a``, ``r``, ``t``, ``n``, ``c``)."""


def accepted_run(result: EvalCaseResult, repeat: int | None) -> EvalCaseResult:
    """The run to accept: the repeat shown, else the case's representative repeat, else
    the case itself (it ran once)."""
    if repeat is not None:
        return result.runs[repeat]
    if result.repeat_results and result.repeat_stats is not None:
        return result.repeat_results[result.repeat_stats.representative]
    return result


async def accept_actual(
    screen: Screen[Any], run: EvalCaseResult, eval_set_id: str, run_timestamp: float
) -> bool:
    """Ask, then accept ``run`` into its case; ``True`` when the file was written.

    Must run in a worker (it waits for the dialog).
    """
    app = screen.app

    def refuse(message: str) -> bool:
        app.notify(message, title="Not accepted", severity="warning", markup=False, timeout=8)
        return False

    host = host_of(app)
    path = find_eval_set_file(host.workspace.eval_set_files(), eval_set_id)
    if path is None:
        return refuse(f"No eval set {quoted(eval_set_id)} in this workspace.")
    try:
        if changed_since_run(path, run_timestamp):
            return refuse(
                f"{path.name} changed on disk since this run: its expectations may not be "
                "those the run was scored on. Run the case again, then accept."
            )
        document = EvalSetDocument.load(path)
        plan = plan_accept(document, run, PARTS)
    except (NotAcceptable, EvalFileError, OSError) as exc:
        message = str(exc.first) if isinstance(exc, EvalFileError) else str(exc)
        return refuse(message)
    if not plan.changes:
        return refuse(f"Case {quoted(run.eval_id)} already expects what this run did.")
    answer = await app.push_screen_wait(
        ChoiceScreen(
            f"Write what this run did as the expectations of case {quoted(run.eval_id)} in "
            f"{path.name}? The diff shows all three parts; choose one to accept only it.",
            CHOICES,
            details=plan.diff(),
            title="Accept the actual",
        )
    )
    if answer == "cancel" or answer not in CHOICES:
        return False
    parts = PARTS if answer == "all" else (answer,)
    problem = await host.accept_actual(path, run, parts)
    if problem is not None:
        return refuse(problem)
    undo = " (ctrl+z in the editor undoes it)" if host.accepts_in_editor else ""
    app.notify(
        f"Case {quoted(run.eval_id)} of {path.name} now expects this run's {', '.join(parts)}{undo}.",
        title="Accepted",
        markup=False,
    )
    return True


__all__ = ["ACCEPT_KEY", "CHOICES", "accept_actual", "accepted_run"]
