"""Why an eval set file does not open: file, line, column, field and problem."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.inert import inert


def problems_text(title: str, problems: Sequence[Problem], hint: str = "") -> Text:
    """The problems as plain text (eval set content is never read as markup, and its
    control characters are shown, never written)."""
    text = Text(inert(title) + "\n\n", style="bold")
    for problem in problems:
        text.append(inert(problem.location()), "bold red")
        if problem.json_path:
            text.append(f"  {inert(problem.json_path)}", "yellow")
        text.append(f"\n    {inert(problem.message, multiline=True)}\n")
    if hint:
        text.append("\n" + hint, "dim")
    return text


class ErrorView(VerticalScroll):
    """Shows the problems that stop a file from loading."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Static(id="error-text"), id=id)

    def show(self, title: str, problems: Sequence[Problem], hint: str = "") -> None:
        """Replace the view's content."""
        self.query_one("#error-text", Static).update(problems_text(title, problems, hint))
