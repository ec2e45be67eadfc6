"""Two texts side by side with their word-level differences highlighted."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.case_diff import DiffOp, word_diff

_STYLES = {
    DiffOp.EQUAL: "",
    DiffOp.REMOVED: "bold red on #3b1219",
    DiffOp.ADDED: "bold green on #12301a",
}


def diff_texts(left: str, right: str) -> tuple[Text, Text]:
    """``left`` and ``right`` as Rich texts, words only in one of them highlighted."""
    diff = word_diff(left, right)
    return (
        Text.assemble(*((t, _STYLES[op]) for op, t in diff.expected)),
        Text.assemble(*((t, _STYLES[op]) for op, t in diff.actual)),
    )


class ResponseDiff(Static):
    """Expected (left) and actual (right) responses; a missing side says so."""

    DEFAULT_CSS = """
    ResponseDiff {
        height: auto;
        padding: 0 1;
    }
    """

    def show_texts(
        self, left_title: str, left: str | None, right_title: str, right: str | None
    ) -> None:
        """Render the two texts; ``None`` means the text is not known."""
        table = Table(expand=True, show_lines=False, box=None, padding=(0, 1))
        table.add_column(Text(left_title, style="bold"), ratio=1)
        table.add_column(Text(right_title, style="bold"), ratio=1)
        if left is None or right is None:
            table.add_row(
                Text(left) if left is not None else Text("(not recorded in the report)", "dim"),
                Text(right) if right is not None else Text("(not recorded in the report)", "dim"),
            )
        else:
            table.add_row(*diff_texts(left, right))
        self.update(table)
