"""The base of the workbench's screens that are shown again and again, kept meanwhile."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class SteadyScreen(Screen[None]):
    """A screen kept while another is shown, and shown again (the editor, the run view,
    the report list, the report opened last).

    Textual restyles a screen's every widget when it is shown again, in case the styles
    changed meanwhile; that took a good part of a switch's time. A kept screen stays a
    child of the app, which restyles it whenever the app's styles change (a new theme),
    so when :meth:`shown_again_as_it_was` says so, it is not restyled.

    Nor is the whole screen repainted when the focus moves (Textual's ``focused``
    repaints it): the widgets the focus leaves and reaches are restyled, and repaint
    themselves, as their focus styles say.
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def shown_again_as_it_was(self) -> bool:
        """Whether the screen is being shown again by a switch that kept it (see the
        subclasses); only then a resume skips the restyle."""
        return False

    def post_message(self, message: Message) -> bool:
        if (
            isinstance(message, events.ScreenResume)
            and message.refresh_styles
            and self.shown_again_as_it_was()
        ):
            message = events.ScreenResume(refresh_styles=False)
        return super().post_message(message)
