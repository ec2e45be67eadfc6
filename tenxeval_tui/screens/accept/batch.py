"""Accept the actual of several cases of one eval set at once: one dialog, one write.

The one flow behind ``A`` in the report browser and the run view, whichever way the
cases were picked (a :class:`Batch`): by the rule (every case that failed on its reply
alone: their replies only), or chosen by the user (``space``: the parts to take, reply,
tool calls or node order, chosen once for all of them). It finds the eval set file in
the workspace, refuses when the file was written after the run, lists each case with
its expected reply before and after (and the cases left out, with why) and the diffs,
asks, then writes through the host
(:meth:`~tenxeval_tui.screens.common.host.WorkbenchHost.accept_actual_many`): in the
workbench through the editor's document (one undo step there, one atomic save), in
another app through a document of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.screen import Screen

from tenxeval_tui.authoring.accept_actual import changed_since_run
from tenxeval_tui.authoring.accept_many import (
    REPLY_ONLY,
    ManyPlan,
    part_names,
    plan_accept_many,
)
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.actual import PARTS
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.screens.accept.one_case import CHOICES
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.settings.workspace import find_eval_set_file


@dataclass(frozen=True, slots=True)
class Batch:
    """The runs to accept into the cases of one eval set, and how they were picked."""

    eval_set_id: str
    runs: list[EvalCaseResult]
    """One run per case: the run to accept (a case with repeats: the repeat to accept)."""
    run_timestamp: float
    """When the (earliest) run of them ended: a file written after it is refused."""
    chosen: bool
    """Chosen by the user (every part offered) rather than by the reply-only rule."""
    left_out: list[tuple[str, str]] = field(default_factory=list)
    """``(eval_id, why)`` of chosen cases that cannot be accepted, known before planning."""


def refuse(screen: Screen[Any], message: str) -> bool:
    """Say why nothing was accepted; ``False``."""
    screen.app.notify(message, title="Not accepted", severity="warning", markup=False, timeout=8)
    return False


def _question(batch: Batch, count: int, name: str) -> tuple[str, dict[str, str], str]:
    """The dialog's question, answers and title."""
    if batch.chosen:
        return (
            f"Write what the run did as the expectations of the {count} selected case(s) in "
            f"{name}? The diffs show all three parts; choose one to accept only it, for "
            "every case.",
            CHOICES,
            "Accept the actual of the selected cases",
        )
    return (
        f"Write the actual reply of {count} case(s) that failed on their reply alone as "
        f"their expected reply in {name}? Their tool calls and node order stay.",
        {"accept": f"Accept {count} replies", "cancel": "Cancel"},
        "Accept the actual replies",
    )


def _parts(batch: Batch, answer: str | None) -> tuple[str, ...] | None:
    """The parts the answer accepts; ``None`` for a cancel."""
    if not batch.chosen:
        return REPLY_ONLY if answer == "accept" else None
    if answer == "all":
        return PARTS
    return (answer,) if answer in PARTS else None


def _plan(batch: Batch, path: Path) -> tuple[EvalSetDocument, ManyPlan]:
    """The file's document and what accepting the batch (every part it offers) writes,
    case by case in the file's order."""
    eval_set = EvalSetDocument.load(path)
    order = {case.eval_id: i for i, case in enumerate(eval_set.cases)}
    runs = sorted(batch.runs, key=lambda r: order.get(r.eval_id, len(order)))  # the file's order
    plan = plan_accept_many(eval_set, runs, PARTS if batch.chosen else REPLY_ONLY)
    return eval_set, ManyPlan(plan.plans, [*batch.left_out, *plan.skipped])


async def accept_batch(screen: Screen[Any], batch: Batch) -> bool:
    """Ask, then accept ``batch`` into its eval set file; ``True`` when it was written.

    Must run in a worker (it waits for the dialog).
    """
    app = screen.app
    host = host_of(app)
    path = find_eval_set_file(host.workspace.eval_set_files(), batch.eval_set_id)
    if path is None:
        return refuse(screen, f"No eval set {quoted(batch.eval_set_id)} in this workspace.")
    try:
        if changed_since_run(path, batch.run_timestamp):
            return refuse(
                screen,
                f"{path.name} changed on disk since this run: its expectations may not be "
                "those the run was scored on. Run the cases again, then accept.",
            )
        eval_set, plan = _plan(batch, path)
    except (EvalFileError, OSError) as exc:
        return refuse(screen, str(exc.first) if isinstance(exc, EvalFileError) else str(exc))
    if not plan.plans:
        return refuse(screen, "Nothing to accept:\n" + plan.summary())
    question, choices, title = _question(batch, len(plan.plans), path.name)
    answer = await app.push_screen_wait(
        ChoiceScreen(question, choices, details=plan.details(), title=title)
    )
    parts = _parts(batch, answer)
    if parts is None:
        return False
    if parts != PARTS and batch.chosen:  # the diffs showed every part: plan the one chosen
        plan = plan_accept_many(eval_set, batch.runs, parts)
        if not plan.plans:
            what = part_names(parts)
            return refuse(screen, f"Nothing changes with the {what} alone:\n{plan.summary()}")
    ids = {p.eval_id for p in plan.plans}
    accepted = [r for r in batch.runs if r.eval_id in ids]
    problem = await host.accept_actual_many(path, accepted, parts)
    if problem is not None:
        return refuse(screen, problem)
    undo = " (one ctrl+z in the editor undoes them all)" if host.accepts_in_editor else ""
    app.notify(
        f"{len(ids)} case(s) of {path.name} now expect this run's {part_names(parts)}{undo}: "
        + ", ".join(p.eval_id for p in plan.plans),
        title="Accepted",
        markup=False,
    )
    return True


__all__ = ["Batch", "accept_batch", "refuse"]
