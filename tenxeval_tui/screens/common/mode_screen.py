"""The base of the workbench's mode screens (editor, run view, reports)."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from textual.types import NoActiveAppError

from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.steady_screen import SteadyScreen


class ModeScreen(SteadyScreen):
    """A screen the workbench shows again and again (``e``, ``r``, ``b``): not restyled
    when a mode switch shows it again (see :class:`SteadyScreen`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A new screen is styled as it mounts, with the styles of now. Textual's count
        # says "styled before the last change" for every new screen, and its first switch
        # to a mode restyled the whole app for it (every kept screen's every widget).
        with suppress(NoActiveAppError):
            self._css_update_count = self.app._css_update_count

    def shown_again_as_it_was(self) -> bool:
        return host_of(self.app).switching_mode
