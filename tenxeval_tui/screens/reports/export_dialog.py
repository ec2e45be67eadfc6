"""Export the shown report to a file: a dialog for the path, then the existing reporters.

``x`` in a report asks for a path (:class:`~tenxeval_tui.screens.common.path_dialog.PathDialog`,
``<report>.csv`` beside the report suggested); the ending of the path chosen names the
format (``.csv`` and ``.jsonl``: one row per case and criterion; ``.json``, ``.html``,
``.xml`` too), as ``run -o FILE`` does
(:func:`~tenxeval_tui.evaluation.reporters.files.write_report`). The report is read whole
and written in a thread; what goes wrong (a folder that cannot be written, a report that
no longer loads) is said with the path, in a toast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen

from tenxeval_tui.screens.common.path_dialog import PathDialog

EXPORT_FORMATS = (".csv", ".jsonl", ".json", ".html", ".xml")


def export_path_problem(raw: str) -> str | None:
    """Why ``raw`` cannot be exported to (``None`` when it can)."""
    path = Path(raw).expanduser()
    if path.suffix.lower() not in EXPORT_FORMATS:
        return f"{raw}: the ending names no format ({', '.join(EXPORT_FORMATS)})"
    if path.is_dir():
        return f"{raw}: is a folder, not a file"
    return None


def export_report(screen: Screen[Any], report_file: Path) -> None:
    """Ask for a path, then write the report in ``report_file`` there (in a thread)."""

    def chosen(target: Path | None) -> None:
        if target is not None:
            screen.run_worker(
                lambda: _write(screen, report_file, target), thread=True, group="export"
            )

    dialog = PathDialog(
        "Export report",
        "Write the report to (the ending names the format: .csv or .jsonl, one row per case "
        "and criterion; .json, .html, .xml):",
        str(report_file.with_suffix(".csv")),
        export_path_problem,
    )
    screen.app.push_screen(dialog, chosen)


def _write(screen: Screen[Any], report_file: Path, target: Path) -> None:
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.reporters.files import write_report

    try:
        written = write_report(EvalReport.from_file(report_file), target)
    except (EvalFileError, ValueError) as exc:
        message, severity = f"not exported: {exc}", "error"
    except OSError as exc:
        message, severity = f"not exported: {target}: {exc.strerror or exc}", "error"
    else:
        message, severity = f"exported to {written}", "information"
    screen.app.call_from_thread(screen.notify, message, severity=severity, markup=False)


__all__ = ["EXPORT_FORMATS", "export_path_problem", "export_report"]
