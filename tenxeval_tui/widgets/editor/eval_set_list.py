"""The eval set files of the workspace, each with its case count or its error."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.settings.workspace import EvalSetEntry


def entry_label(entry: EvalSetEntry, shown_path: str, *, current: bool = False) -> Text:
    """``smoke  12 cases`` or ``broken  ✗ 3:5 invalid JSON`` (plain text, never markup)."""
    label = Text("● " if current else "  ")
    label.append(inert(shown_path))
    if entry.ok and entry.case_count is not None:
        label.append(f"  {entry.case_count} case{'s' if entry.case_count != 1 else ''}", "dim")
    elif entry.ok:
        label.append("  …", "dim")
    else:
        first = entry.problems[0]
        where = f"{first.line}:{first.column} " if first.line is not None else ""
        label.append(inert(f"  ✗ {where}{first.message}"), "red")
    return label


class EvalSetList(OptionList):
    """Pick the eval set file to edit (enter); ``n`` makes a new one."""

    BINDINGS = [
        Binding("n", "screen.new_eval_set", "New eval set"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[EvalSetEntry] = []

    def show_entries(
        self, entries: list[EvalSetEntry], shown: dict[Path, str], current: Path | None
    ) -> None:
        """Replace the list with ``entries`` (``shown`` gives each path's display text)."""
        highlighted = self.highlighted
        self.entries = list(entries)
        self.clear_options()
        self.add_options(
            Option(entry_label(e, shown.get(e.path, str(e.path)), current=e.path == current))
            for e in entries
        )
        if entries:
            self.highlighted = min(highlighted or 0, len(entries) - 1)
