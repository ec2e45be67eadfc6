"""Handing a case over from the report browser to the other screens of the app.

The report browser does not edit or run anything itself. Its screens post a
:class:`CaseRequest` (edit the case, run it again, continue its conversation: each names
the eval set id and the case id), which bubbles up to the app; the workbench answers it
by opening the editor or the run view (``WorkbenchApp.on_case_request``). Which requests
the app answers is the host's :attr:`~tenxeval_tui.screens.common.host.WorkbenchHost.case_requests`:
a key whose request no one answers is shown disabled rather than doing nothing.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.message import Message
from textual.screen import Screen

from tenxeval_tui.screens.common.host import (
    CONTINUE_ACTION,
    EDIT_ACTION,
    RERUN_ACTION,
    CaseRequest,
    host_of,
)


def app_supports(app: App[Any], action: str) -> bool:
    """Whether ``app`` answers the case request ``action`` (:data:`EDIT_ACTION`,
    :data:`RERUN_ACTION` or :data:`CONTINUE_ACTION`)."""
    return action in host_of(app).case_requests


def request_case_action(screen: Screen[Any], action: str, eval_set_id: str, eval_id: str) -> bool:
    """Ask the app, from ``screen``, to ``action`` a case (a posted :class:`CaseRequest`);
    ``False`` (and a notice) when the app answers no such request."""
    if not app_supports(screen.app, action):
        screen.notify(f"This app has no {action.replace('_', ' ')} view.", severity="warning")
        return False
    message: Message = CaseRequest(action, eval_set_id, eval_id)
    return screen.post_message(message)


__all__ = [
    "CONTINUE_ACTION",
    "EDIT_ACTION",
    "RERUN_ACTION",
    "CaseRequest",
    "app_supports",
    "request_case_action",
]
