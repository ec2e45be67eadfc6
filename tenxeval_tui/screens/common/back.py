"""``esc`` on every screen: one step back.

A screen opened on top of another (a report, a case, a comparison) closes; a mode's
first screen (editor, run view, report list) returns to the mode it was reached from.
Where there is no step back, the screen's ``check_action`` hides the key
(:func:`can_go_back`), so the footer never offers an ``esc`` that does nothing.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from tenxeval_tui.screens.common.host import host_of


def can_go_back(screen: Screen[Any]) -> bool:
    """Whether ``esc`` on ``screen`` has somewhere to go."""
    app = screen.app
    return len(app.screen_stack) > 1 or host_of(app).can_go_back


async def go_back_one_step(screen: Screen[Any]) -> None:
    """Close ``screen`` when it sits on another, else return to the mode before."""
    app = screen.app
    if len(app.screen_stack) > 1:
        await app.pop_screen()
        return
    await host_of(app).go_back()


__all__ = ["can_go_back", "go_back_one_step"]
