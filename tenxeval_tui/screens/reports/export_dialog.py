"""Export the shown report to a file: a dialog for the path, then the existing reporters.

``x`` in a report opens :class:`ExportScreen` with ``<report>.csv`` beside the report;
the ending of the path chosen names the format (``.csv`` and ``.jsonl``: one row per case
and criterion; ``.json``, ``.html``, ``.xml`` too), as ``run -o FILE`` does
(:func:`~tenxeval_tui.evaluation.reporters.files.write_report`). The report is read whole
and written in a thread; what goes wrong (a format no reporter writes, a folder that
cannot be written, a report that no longer loads) is said with the path, in a toast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from tenxeval_tui.evaluation.inert import inert

EXPORT_FORMATS = (".csv", ".jsonl", ".json", ".html", ".xml")


class ExportScreen(ModalScreen[Path | None]):
    """Ask where to write the report; dismisses with the path, or ``None`` on escape."""

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen #export-dialog {
        width: 80; height: auto; border: round $accent; padding: 0 1; background: $surface;
    }
    ExportScreen #export-problem { color: $error; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, suggested: Path) -> None:
        super().__init__()
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog") as dialog:
            dialog.border_title = "Export report"
            yield Static(
                "Write the report to (the ending names the format: .csv or .jsonl, one row "
                "per case and criterion; .json, .html, .xml):"
            )
            yield Input(str(self.suggested), id="export-path", select_on_focus=False)
            yield Static("", id="export-problem")

    @on(Input.Submitted, "#export-path")
    def _submitted(self, event: Input.Submitted) -> None:
        raw = event.value.strip()
        problem = export_path_problem(raw)
        if problem is not None:
            self.query_one("#export-problem", Static).update(Text(inert(problem)))
            return
        self.dismiss(Path(raw).expanduser())


def export_path_problem(raw: str) -> str | None:
    """Why ``raw`` cannot be exported to (``None`` when it can)."""
    if not raw:
        return "type a file name"
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

    screen.app.push_screen(ExportScreen(report_file.with_suffix(".csv")), chosen)


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


__all__ = ["EXPORT_FORMATS", "ExportScreen", "export_path_problem", "export_report"]
