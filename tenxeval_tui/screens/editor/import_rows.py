"""Import rows into the open eval set: ``f4`` in the editor.

A dialog (:class:`~tenxeval_tui.screens.common.path_dialog.PathDialog`) asks for a CSV,
TSV, JSONL or Google ADK eval set file; it is read in a thread by the same importer as
``tenxeval-tui import`` (:func:`~tenxeval_tui.evaluation.dataset.importing.import_eval_set`,
columns found by their usual names), and its cases are added at the end of the open eval
set through the document model, as one undo step (``ctrl+z`` takes the whole import back).
An id the eval set has already gets a ``_2`` suffix. A file that does not import adds
nothing: its problems, each at its line, are shown in a toast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.importing import FORMATS, guess_format
from tenxeval_tui.screens.common.path_dialog import PathDialog

MAX_SHOWN = 8
"""Problems listed in the toast (the rest are counted)."""


def import_path_problem(raw: str) -> str | None:
    """Why ``raw`` cannot be imported from (``None`` when it can)."""
    path = Path(raw).expanduser()
    if guess_format(path) is None:
        return f"{raw}: not a .csv, .tsv, .jsonl or ADK .evalset.json file"
    if not path.is_file():
        return f"{raw}: file not found"
    return None


def read_rows(path: Path) -> tuple[list[dict[str, Any]], str | None]:
    """The cases of the file at ``path`` as JSON data, or ``([], why not)`` with every
    problem on its own line."""
    from tenxeval_tui.evaluation.dataset.importing import MappingError, import_eval_set
    from tenxeval_tui.evaluation.errors import EvalFileError

    try:
        result = import_eval_set(path)
    except EvalFileError as exc:
        lines = [str(p) for p in exc.problems[:MAX_SHOWN]]
        if len(exc.problems) > MAX_SHOWN:
            lines.append(f"... and {len(exc.problems) - MAX_SHOWN} more")
        return [], "\n".join(lines)
    except (MappingError, ValueError) as exc:
        return [], str(exc)
    except OSError as exc:
        return [], f"{path}: {exc.strerror or exc}"
    return [case.model_dump(mode="json") for case in result.eval_set.eval_cases], None


def ask_and_import(screen: Any) -> None:
    """Ask for a file, then add its rows to ``screen``'s open document (an editor screen)."""
    document = screen.document
    start = document.path.parent if document is not None and document.path else Path.cwd()

    def chosen(path: Path | None) -> None:
        if path is not None:
            screen.run_worker(_read_then_add(screen, path), group="import-rows", exclusive=True)

    dialog = PathDialog(
        "Import rows",
        f"Add the rows of a file as cases of this eval set ({', '.join(FORMATS)}; columns as "
        "`tenxeval-tui import` finds them: query, expected, tags, id...):",
        str(start) + "/",
        import_path_problem,
    )
    screen.app.push_screen(dialog, chosen)


async def _read_then_add(screen: Any, path: Path) -> None:
    import asyncio

    cases, problem = await asyncio.to_thread(read_rows, path)
    if problem is not None:
        screen.notify(f"Nothing imported:\n{problem}", severity="error", markup=False, timeout=15)
        return
    if not cases:
        screen.notify(f"{path}: no rows to import", severity="warning", markup=False)
        return
    await add_cases(screen, cases, path)


async def add_cases(screen: Any, cases: list[dict[str, Any]], source: Path) -> None:
    """Add ``cases`` at the end of ``screen``'s document (one undo step) and show the first."""
    document = screen.document
    if document is None:
        screen.notify("Open an eval set first.", severity="warning", markup=False)
        return
    await screen.cases.settle()
    uids = document.insert_cases(len(document.cases), cases)
    await screen.cases.reshow(uids[0])
    screen.notify(
        f"Imported {len(uids)} case(s) from {source.name} (ctrl+z takes them back).",
        markup=False,
    )


__all__ = ["add_cases", "ask_and_import", "import_path_problem", "read_rows"]
