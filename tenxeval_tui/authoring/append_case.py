"""Appending a case to an eval set file through the document model, and taking it back.

The report browser's "save as case" turns a simulated conversation into a multi-turn
case (:meth:`SimulationResult.to_eval_case`) and appends it here: the file is opened as
an :class:`EvalSetDocument` (checked first, so a broken file is never touched), the
case is inserted as one undo step under an ``eval_id`` no other case of the file has,
and the document is saved (atomically).
:func:`undo_append` takes the case out again with the same document's undo, as long as
the file has not changed since. No UI import.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.files.fileio import read_text


class AppendError(Exception):
    """The case could not be appended (or taken back); the message says why and where."""


@dataclass
class AppendedCase:
    """A case appended to ``path`` and the document that did it (for :func:`undo_append`)."""

    path: Path
    eval_id: str
    document: EvalSetDocument


def free_eval_id(taken: set[str], wanted: str) -> str:
    """``wanted``, or ``wanted_2``, ``wanted_3``... the first no case in ``taken`` has."""
    candidate, index = wanted, 2
    while candidate in taken:
        candidate, index = f"{wanted}_{index}", index + 1
    return candidate


def append_case(path: Path, case: EvalCase) -> AppendedCase:
    """Append ``case`` to the eval set file ``path`` (renamed if its id is taken) and save.

    Raises :class:`AppendError` naming the file and the problem when it does not load or
    cannot be written; nothing is written then.
    """
    from tenxeval_tui.evaluation.errors import EvalFileError

    try:
        document = EvalSetDocument.load(path)
    except FileNotFoundError:
        raise AppendError(f"{path}: file not found") from None
    except EvalFileError as exc:
        raise AppendError(str(exc)) from None
    except OSError as exc:
        raise AppendError(f"{path}: {exc.strerror or exc}") from None
    data = case.model_dump(mode="json")
    data["eval_id"] = free_eval_id({c.eval_id for c in document.cases}, case.eval_id)
    document.insert_case(len(document.cases), data)
    _save(document, path)
    return AppendedCase(path, data["eval_id"], document)


def undo_append(appended: AppendedCase) -> None:
    """Take the appended case out of its file again (the document's undo, then a save).

    Raises :class:`AppendError` when the file changed since (the editor, or anyone, wrote
    it: undo there instead) or cannot be written.
    """
    try:
        now = read_text(appended.path)
    except OSError as exc:
        raise AppendError(f"{appended.path}: {exc.strerror or exc}") from None
    if now != appended.document.disk_text:
        raise AppendError(
            f"{appended.path} changed since case {appended.eval_id!r} was saved: "
            "remove it in the editor instead"
        )
    if appended.document.undo() is None:
        raise AppendError(f"case {appended.eval_id!r} was taken back already")
    _save(appended.document, appended.path)


def _save(document: EvalSetDocument, path: Path) -> None:
    try:
        problems = document.save()
    except OSError as exc:
        raise AppendError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if problems:
        raise AppendError(f"{path}: not saved: " + "; ".join(problems))


__all__ = ["AppendError", "AppendedCase", "append_case", "free_eval_id", "undo_append"]
