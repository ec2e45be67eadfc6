"""Accepting a run's actual behaviour into the case open in the editor (undoable there).

The app hands the editor an accepted run (see
:mod:`tenxeval_tui.screens.accept.one_case`): the editor opens the eval set
(asking first if another file has unsaved changes), highlights the case, puts the new
expectations into its document as one undo step, saves atomically and shows the case
again, so ``ctrl+z`` (then ``ctrl+s``) takes it back. Several runs at once
(:func:`accept_many_in_editor`) are one undo step too.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from tenxeval_tui.authoring.accept_actual import apply_accept, plan_accept
from tenxeval_tui.authoring.accept_many import apply_accept_many, plan_accept_many
from tenxeval_tui.evaluation.actual import NotAcceptable
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.screens.editor.editor import EditorScreen


async def accept_in_editor(
    editor: EditorScreen, path: Path, run: EvalCaseResult, parts: Collection[str]
) -> str | None:
    """Accept ``run`` as its case's expectations in ``path``, through ``editor``'s document.

    Returns why nothing was written (for the user), or ``None`` once saved.
    """
    problem = await editor.show_case(path, run.eval_id)
    if problem is not None:
        return problem
    document = editor.document
    if document is None or document.path is None or document.path.resolve() != path.resolve():
        return f"{path.name} is not open in the editor: nothing was written."
    if document.dirty:
        return f"{path.name} has unsaved changes in the editor: save or undo them first."
    try:
        plan = plan_accept(document, run, parts)
    except NotAcceptable as exc:
        return str(exc)
    problems = apply_accept(document, plan)
    await editor.set_document(document)  # the form and table show the new expectations
    if problems:
        return "Not saved (ctrl+z undoes the change): " + "; ".join(problems)
    return None


async def accept_many_in_editor(
    editor: EditorScreen, path: Path, runs: list[EvalCaseResult], parts: Collection[str]
) -> str | None:
    """Accept each of ``runs`` as its case's expectations in ``path`` through ``editor``'s
    document, all as one undo step and one save; why nothing was written, or ``None``."""
    if not runs:
        return "No case to accept: nothing was written."
    problem = await editor.show_case(path, runs[0].eval_id)
    if problem is not None:
        return problem
    document = editor.document
    if document is None or document.path is None or document.path.resolve() != path.resolve():
        return f"{path.name} is not open in the editor: nothing was written."
    if document.dirty:
        return f"{path.name} has unsaved changes in the editor: save or undo them first."
    plan = plan_accept_many(document, runs, parts)
    if plan.skipped:
        eval_id, why = plan.skipped[0]
        return f"Case {quoted(eval_id)} cannot be accepted now ({why}): nothing was written."
    problems = apply_accept_many(document, plan)
    await editor.set_document(document)  # the form and table show the new expectations
    if problems:
        return "Not saved (ctrl+z undoes the change): " + "; ".join(problems)
    return None


__all__ = ["accept_in_editor", "accept_many_in_editor"]
