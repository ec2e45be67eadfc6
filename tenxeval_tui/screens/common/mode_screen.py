"""The base of the workbench's mode screens (editor, run view, reports)."""

from __future__ import annotations

from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.steady_screen import SteadyScreen


class ModeScreen(SteadyScreen):
    """A screen the workbench shows again and again (``e``, ``r``, ``b``): not restyled
    when a mode switch shows it again (see :class:`SteadyScreen`)."""

    def shown_again_as_it_was(self) -> bool:
        return host_of(self.app).switching_mode
