"""Accepting a run's actual behaviour into the case open in the editor (undoable there).

The app hands the editor an accepted run (see
:mod:`tenxeval_tui.screens.reports.accept_actual`): the editor opens the eval set
(asking first if another file has unsaved changes), highlights the case, puts the new
expectations into its document as one undo step, saves atomically and shows the case
again, so ``ctrl+z`` (then ``ctrl+s``) takes it back.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from tenxeval_tui.authoring.accept_actual import apply_accept, plan_accept
from tenxeval_tui.evaluation.actual import NotAcceptable
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
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


__all__ = ["accept_in_editor"]
