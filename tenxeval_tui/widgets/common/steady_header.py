"""The header of a screen whose title changes as the user works (the editor's says
``● unsaved``): Textual's, its new title drawn without a layout pass."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.visual import VisualType
from textual.widgets import Header
from textual.widgets._header import HeaderTitle  # not exported; Textual is pinned below 9


class _SteadyTitle(HeaderTitle):
    """The title line: as wide as the header whatever its text, so a new title asks for
    no layout of the screen (Textual's laid out the whole screen again for each: an undo
    that made the file unsaved, or saved again, took one more pass)."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(content, layout=False)


class SteadyHeader(Header):
    """Textual's :class:`~textual.widgets.Header` whose title changes need no layout."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield _SteadyTitle() if type(widget) is HeaderTitle else widget


__all__ = ["SteadyHeader"]
