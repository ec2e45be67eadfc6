"""The base of the workbench's mode screens (editor, run view, reports)."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.screen import Screen

from tenxeval_tui.screens.common.host import host_of


class ModeScreen(Screen[None]):
    """A screen the workbench shows again and again (``e``, ``r``, ``b``).

    Textual restyles a screen's every widget when it is shown again after a mode switch,
    in case the styles changed meanwhile; that took a good part of a switch's time on the
    editor. The app's stylesheet is checked by the switch itself (a changed one updates
    the screen then), so a mode screen shown again by a switch is not restyled.
    """

    def post_message(self, message: Message) -> bool:
        if (
            isinstance(message, events.ScreenResume)
            and message.refresh_styles
            and host_of(self.app).switching_mode
        ):
            message = events.ScreenResume(refresh_styles=False)
        return super().post_message(message)
