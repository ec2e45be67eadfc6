"""The base of the workbench's screens that are shown again and again, kept meanwhile."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.types import NoActiveAppError
from textual.widget import Widget

from tenxeval_tui.screens.common.dirty_compositor import DirtyRegionCompositor


class SteadyScreen(Screen[None]):
    """A screen kept while another is shown, and shown again (the editor, the run view,
    the report list, the report opened last).

    Textual restyles a screen's every widget when it is shown again, in case the styles
    changed meanwhile; that took a good part of a switch's time. A kept screen stays a
    child of the app, which restyles it whenever the app's styles change (a new theme),
    so when :meth:`shown_again_as_it_was` says so, it is not restyled.

    Nor is the whole screen repainted when the focus moves (Textual's ``focused``
    repaints it): the widgets the focus leaves and reaches are restyled, and repaint
    themselves, as their focus styles say. Nor when its title or sub-title changes: the
    header, which shows them, repaints itself (an undo that made the file unsaved, or
    saved again, repainted every widget of the editor). Its frames draw only the widgets
    under what changed (see :mod:`~tenxeval_tui.screens.common.dirty_compositor`).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    def shown_again_as_it_was(self) -> bool:
        """Whether the screen is being shown again by a switch that kept it (see the
        subclasses); only then a resume skips the restyle."""
        return False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = DirtyRegionCompositor()
        self._resumed = False
        """Whether a resume was posted to this screen (the first one shows it new)."""
        self._styles_when_made = self._styles_now()

    def _styles_now(self) -> tuple[int, int] | None:
        """What says the app's styles changed: Textual's count of changes (a theme) and
        the number of style sources (a screen's own sheet, read as it is first shown)."""
        try:
            app = self.app
        except NoActiveAppError:
            return None
        return app._css_update_count, len(app.stylesheet.source)

    def _screen_resized(self, size: Size) -> None:
        """Textual's layout of the whole screen for a new terminal size, not when the
        screen is laid out at that size already. Textual lays a new screen out as it is
        first shown, then twice again at the same size: for the resize it posts to the
        screen itself from that layout, and for the terminal's first size, which the app
        keeps until idle. Each time every widget was placed anew and the screen drawn
        whole: three layouts and two full frames before the first case's form, where
        one of each shows the same. (A layout a widget asks for is done anyway, on
        idle.)"""
        if size == self._compositor.size:
            return
        super()._screen_resized(size)

    def post_message(self, message: Message) -> bool:
        if isinstance(message, events.ScreenResume):
            first, self._resumed = not self._resumed, True
            # A new screen is styled as it mounts: restyling its every widget again as it
            # is first shown took a third of a report's opening. It is, if the styles
            # changed since it was made (its own sheet was read only as it was shown).
            made = self._styles_when_made
            fresh = first and made is not None and made == self._styles_now()
            if message.refresh_styles and (fresh or self.shown_again_as_it_was()):
                message = events.ScreenResume(refresh_styles=False)
        return super().post_message(message)
