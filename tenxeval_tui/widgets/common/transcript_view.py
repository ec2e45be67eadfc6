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
from textual import events
from textual.widgets import RichLog, Static

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
    lines = [f"({dropped} earlier blocks left out)"] if dropped else []
    for block in blocks:
        lines.append(block_heading(block).plain)
        if block.body:
            lines.extend("  " + line for line in block_body(block).plain.splitlines())
    return "\n".join(lines)


def transcript_renderable(blocks: Sequence[TranscriptBlock], dropped: int = 0) -> RenderableType:
    """Headings, and bodies indented by two cells (wrapped lines too)."""
    parts: list[RenderableType] = []
    if dropped:
        parts.append(Text(f"({dropped} earlier blocks left out)", style="dim"))
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


PANE_SHOWN_BLOCKS = 200
"""Blocks :meth:`TranscriptPane.show` renders at once (the last ones): rendering costs about
a millisecond a block, and showing a case must not hold the keyboard up."""
PANE_MAX_LINES = 4_000
"""Lines the pane keeps as blocks are appended (the first ones go)."""


class TranscriptPane(RichLog):
    """A transcript that grows: :meth:`append` renders only the new blocks (a live case's
    transcript can gain hundreds a second), :meth:`show` starts over; it follows the end
    while it is at the end, and wraps everything again when its width changes."""

    DEFAULT_CSS = """
    TranscriptPane {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, wrap=True, markup=False, highlight=False, min_width=1, max_lines=PANE_MAX_LINES
        )
        self._blocks: list[TranscriptBlock] = []
        self._dropped = 0
        self._width = 0

    @property
    def written(self) -> int:
        """How many blocks the pane holds."""
        return len(self._blocks)

    @property
    def plain(self) -> str:
        """What is shown, as plain text (see :func:`transcript_plain`)."""
        return transcript_plain(self._blocks, self._dropped)

    def show(self, blocks: Sequence[TranscriptBlock], dropped: int = 0) -> None:
        """Show ``blocks`` (their last :data:`PANE_SHOWN_BLOCKS`) from the start
        (``dropped``: how many earlier ones were left out)."""
        blocks = list(blocks)
        dropped += max(len(blocks) - PANE_SHOWN_BLOCKS, 0)
        blocks = blocks[-PANE_SHOWN_BLOCKS:]
        self._blocks, self._dropped = [], dropped
        self.clear()
        self._width = self.scrollable_content_region.width
        if dropped:
            note = f"({dropped} earlier blocks: in the case's report, and the events pane)"
            self.write(Text(note, style="dim"))
        if not blocks:
            self.write(Text("(nothing yet)", style="dim"), scroll_end=False)
        self.append(blocks)
        self.scroll_home(animate=False)

    def append(self, blocks: Sequence[TranscriptBlock]) -> None:
        """Add ``blocks`` at the end (the view follows them if it was at the end)."""
        follow = self.scroll_y >= self.max_scroll_y
        for block in blocks:
            self._blocks.append(block)
            if len(self._blocks) > 2 * PANE_SHOWN_BLOCKS:  # as the log drops its first lines
                self._dropped += PANE_SHOWN_BLOCKS
                del self._blocks[:PANE_SHOWN_BLOCKS]
            self.write(block_heading(block), scroll_end=follow)
            if block.body:
                self.write(Padding(block_body(block), (0, 0, 0, 2)), scroll_end=follow)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if self._width and width != self._width and self._blocks:
            self.show(list(self._blocks), self._dropped)


__all__ = [
    "KIND_STYLE",
    "PANE_MAX_LINES",
    "PANE_SHOWN_BLOCKS",
    "TranscriptPane",
    "TranscriptView",
    "block_body",
    "block_heading",
    "transcript_plain",
    "transcript_renderable",
]
