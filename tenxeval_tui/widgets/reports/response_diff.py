"""Two texts side by side with their word-level differences highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tenxeval_tui.browsing.case_diff import DiffOp, word_diff
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.in_place import update_in_place

_STYLES = {
    DiffOp.EQUAL: "",
    DiffOp.REMOVED: "bold red on #3b1219",
    DiffOp.ADDED: "bold green on #12301a",
}
_UNKNOWN = "(not recorded in the report)"


def diff_texts(left: str, right: str) -> tuple[Text, Text]:
    """``left`` and ``right`` as Rich texts, words only in one of them highlighted."""
    diff = word_diff(left, right)
    return (
        Text.assemble(*((inert(t, multiline=True), _STYLES[op]) for op, t in diff.expected)),
        Text.assemble(*((inert(t, multiline=True), _STYLES[op]) for op, t in diff.actual)),
    )


class ResponseDiff(Horizontal):
    """Expected (left) and actual (right) responses; a side that is not known says so."""

    DEFAULT_CSS = """
    ResponseDiff {
        height: auto;
    }
    ResponseDiff > Static {
        width: 1fr;
        padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(classes="diff-left")
        yield Static(classes="diff-right")

    def show_texts(
        self, left_title: str, left: str | None, right_title: str, right: str | None
    ) -> None:
        """Show the two texts under their titles; ``None`` means the text is not known."""
        if left is None or right is None:
            left_text = (
                Text(inert(left, multiline=True)) if left is not None else Text(_UNKNOWN, "dim")
            )
            right_text = (
                Text(inert(right, multiline=True)) if right is not None else Text(_UNKNOWN, "dim")
            )
        else:
            left_text, right_text = diff_texts(left, right)
        update_in_place(
            self.query_one(".diff-left", Static),
            Text.assemble((left_title, "bold"), "\n", left_text),
        )
        update_in_place(
            self.query_one(".diff-right", Static),
            Text.assemble((right_title, "bold"), "\n", right_text),
        )

    @property
    def plain(self) -> str:
        """Both sides as plain text (left, then right)."""
        return "\n".join(str(s.content) for s in self.query(Static))
