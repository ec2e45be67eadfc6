"""Expected and actual tool calls aligned: missing, extra and wrong-argument calls marked."""

from __future__ import annotations

import json

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.case_diff import AlignedStep, StepMatch, align_trajectory
from tenxeval_tui.evaluation.dataset import ToolCall

_MARKS = {
    StepMatch.MATCH: ("✓ match", "green"),
    StepMatch.WRONG_ARGS: ("≠ wrong args", "yellow"),
    StepMatch.MISSING: ("- missing", "red"),
    StepMatch.EXTRA: ("+ extra", "magenta"),
}


def call_text(call: ToolCall | None, highlight: tuple[str, ...] = ()) -> Text:
    """``name(arg=value, ...)`` with the arguments in ``highlight`` in yellow."""
    if call is None:
        return Text("")
    text = Text(call.name, style="bold")
    text.append("(")
    for i, (key, value) in enumerate(call.args.items()):
        if i:
            text.append(", ")
        shown = json.dumps(value, ensure_ascii=False, default=str)
        text.append(f"{key}={shown}", style="yellow" if key in highlight else "")
    text.append(")")
    return text


class TrajectoryDiff(Static):
    """A table of aligned steps: expected call, actual call, and how they match."""

    DEFAULT_CSS = """
    TrajectoryDiff {
        height: auto;
        padding: 0 1;
    }
    """

    def show_calls(
        self,
        expected: list[ToolCall] | None,
        actual: list[ToolCall],
        titles: tuple[str, str] = ("Expected", "Actual"),
    ) -> list[AlignedStep]:
        """Render the alignment (``expected=None``: not known) and return its rows."""
        table = Table(expand=True, box=None, padding=(0, 1))
        table.add_column(Text("", style="bold"), width=14, no_wrap=True)
        table.add_column(Text(titles[0], style="bold"), ratio=1)
        table.add_column(Text(titles[1], style="bold"), ratio=1)
        if expected is None:
            for call in actual:
                table.add_row(Text("?", style="dim"), Text("-", style="dim"), call_text(call))
            if not actual:
                table.add_row(
                    Text(""), Text("(not recorded)", "dim"), Text("(no tool calls)", "dim")
                )
            self.update(table)
            return []
        rows = align_trajectory(expected, actual)
        for row in rows:
            label, style = _MARKS[row.match]
            table.add_row(
                Text(label, style=style),
                call_text(row.expected, row.differing_args),
                call_text(row.actual, row.differing_args),
            )
        if not rows:
            table.add_row(Text(""), Text("(none)", "dim"), Text("(none)", "dim"))
        self.update(table)
        return rows
