"""The header of a screen whose title changes as the user works (the editor's says
``● unsaved``): Textual's, its new title drawn without a layout pass, in the frame of the
change that made it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.events import Mount
from textual.visual import VisualType
from textual.widgets import Header
from textual.widgets._header import HeaderTitle  # not exported; Textual is pinned below 9


class _SteadyTitle(HeaderTitle):
    """The title line: as wide as the header whatever its text, so a new title asks for
    no layout of the screen (Textual's laid out the whole screen again for each: an undo
    that made the file unsaved, or saved again, took one more pass); the same title set
    again paints nothing."""

    _shown: object = None

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        shown = (content.plain, tuple(content.spans)) if isinstance(content, Content) else content
        if shown == self._shown:
            return
        self._shown = shown
        super().update(content, layout=False)


class SteadyHeader(Header):
    """Textual's :class:`~textual.widgets.Header` whose title changes need no layout and
    show in the frame of the change (Textual's header updates them a step later, after
    that frame: the editor's '● unsaved' came a frame after the key that made it)."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield _SteadyTitle() if type(widget) is HeaderTitle else widget

    def _on_mount(self, _: Mount) -> None:
        # Header's own handler runs next (Textual calls each class's in turn) and keeps
        # its later update, which then finds the title already shown.
        for name in ("title", "sub_title"):
            self.watch(self.screen, name, self._show_title_now, init=False)

    def _show_title_now(self) -> None:
        self.query_one(_SteadyTitle).update(self.format_title())


__all__ = ["SteadyHeader"]
