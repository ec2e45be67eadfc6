"""Handing a case over to the other screens of the app: the editor and the run view.

The report browser does not edit or run anything itself. It asks the app to,
through the app's actions ``edit_case`` and ``rerun_case`` (both take the eval
set id and the case id). When the app has no such action the key is shown
disabled rather than doing nothing.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

EDIT_ACTION = "edit_case"
RERUN_ACTION = "rerun_case"


def app_supports(app: App[Any], action: str) -> bool:
    """Whether ``app`` defines ``action_<action>``."""
    return callable(getattr(app, f"action_{action}", None))


async def request_case_action(
    app: App[object], action: str, eval_set_id: str, eval_id: str
) -> bool:
    """Run the app's ``action`` on a case; ``False`` (and a notice) when the app lacks it."""
    if not app_supports(app, action):
        app.notify(f"This app has no {action.replace('_', ' ')} view.", severity="warning")
        return False
    await app.run_action(f"{action}({eval_set_id!r}, {eval_id!r})")
    return True
