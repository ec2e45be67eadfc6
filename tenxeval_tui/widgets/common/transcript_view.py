"""A case's transcript (see :mod:`tenxeval_tui.runs.transcript`), one block after another:
a coloured heading, then its text indented, long lines wrapped to the pane's width.

Every title and body is untrusted (the agent's, the judge's, the eval set's): it is made
inert and shown as plain text, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.transcript import BlockKind, TranscriptBlock

KIND_STYLE = {
    BlockKind.USER: ("● ", "bold cyan"),
    BlockKind.MODEL: ("▸ ", "bold"),
    BlockKind.TOOL: ("⚙ ", "bold magenta"),
    BlockKind.REPLY: ("■ ", "bold green"),
    BlockKind.EXPECTED: ("◇ ", "bold blue"),
    BlockKind.VERDICT: ("⚖ ", "bold"),
    BlockKind.ERROR: ("✗ ", "bold red"),
}
"""The mark and style of each kind of block's heading."""


def block_heading(block: TranscriptBlock) -> Text:
    """``▸ MAIN``, ``⚙ get_weather(city="Oslo")``...: a block's heading (inert)."""
    mark, style = KIND_STYLE[block.kind]
    if block.kind == BlockKind.VERDICT:
        style = "bold red" if block.failed else "bold green"
    return Text(mark + inert(block.title), style=style)


def block_body(block: TranscriptBlock) -> Text:
    """A block's text (inert, its line breaks kept)."""
    style = "red" if block.failed and block.kind != BlockKind.VERDICT else ""
    return Text(inert(block.body, multiline=True).expandtabs(4), style=style)


def transcript_plain(blocks: Sequence[TranscriptBlock], dropped: int = 0) -> str:
    """The text a :class:`TranscriptView` shows for ``blocks``, unwrapped (for copying, tests)."""
    lines = [f"({dropped} earlier blocks are in the report)"] if dropped else []
    for block in blocks:
        lines.append(block_heading(block).plain)
        if block.body:
            lines.extend("  " + line for line in block_body(block).plain.splitlines())
    return "\n".join(lines)


def transcript_renderable(blocks: Sequence[TranscriptBlock], dropped: int = 0) -> RenderableType:
    """Headings, and bodies indented by two cells (wrapped lines too)."""
    parts: list[RenderableType] = []
    if dropped:
        parts.append(Text(f"({dropped} earlier blocks are in the report)", style="dim"))
    for block in blocks:
        parts.append(block_heading(block))
        if block.body:
            parts.append(Padding(block_body(block), (0, 0, 0, 2)))
    if not parts:
        parts.append(Text("(nothing yet)", style="dim"))
    return Group(*parts)


class TranscriptView(Static):
    """Shows a transcript; :meth:`show` replaces it."""

    DEFAULT_CSS = """
    TranscriptView {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.plain = ""
        """What is shown, as plain text (see :func:`transcript_plain`)."""

    def show(self, blocks: Sequence[TranscriptBlock], dropped: int = 0) -> None:
        """Show ``blocks`` (``dropped``: how many earlier ones were left out)."""
        shown = list(blocks)
        self.plain = transcript_plain(shown, dropped)
        self.update(transcript_renderable(shown, dropped))


class TranscriptPane(VerticalScroll):
    """A :class:`TranscriptView` that scrolls, following the end while it is at the end."""

    DEFAULT_CSS = """
    TranscriptPane {
        height: 1fr;
    }
    """

    def compose(self) -> ComposeResult:
        yield TranscriptView()

    @property
    def view(self) -> TranscriptView:
        """The transcript shown."""
        return self.query_one(TranscriptView)

    def show(
        self, blocks: Sequence[TranscriptBlock], dropped: int = 0, *, from_start: bool = False
    ) -> None:
        """Show ``blocks``; the end stays in sight if it was (``from_start``: scroll home)."""
        at_end = self.scroll_y >= self.max_scroll_y
        self.view.show(blocks, dropped)
        if from_start:
            self.scroll_home(animate=False)
        elif at_end:
            self.call_after_refresh(self.scroll_end, animate=False)


__all__ = [
    "KIND_STYLE",
    "TranscriptPane",
    "TranscriptView",
    "block_body",
    "block_heading",
    "transcript_plain",
    "transcript_renderable",
]
