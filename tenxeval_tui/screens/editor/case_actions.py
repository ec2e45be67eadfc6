"""Handing a case over to the other screens of the app: the editor and the run view.

The report browser does not edit or run anything itself. It asks the app to,
through the app's actions ``edit_case``, ``rerun_case`` and ``continue_conversation``
(each takes the eval set id and the case id: :class:`CaseEditor`, :class:`CaseRerunner`,
:class:`CaseContinuer`). When the app
has no such action the key is shown disabled rather than doing nothing.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from textual.app import App

EDIT_ACTION = "edit_case"
RERUN_ACTION = "rerun_case"
CONTINUE_ACTION = "continue_conversation"


@runtime_checkable
class CaseEditor(Protocol):
    """An app that opens a case in its editor."""

    def action_edit_case(self, eval_set_id: str, eval_id: str) -> Any:
        """Show case ``eval_id`` of eval set ``eval_set_id`` in the editor."""
        ...


@runtime_checkable
class CaseRerunner(Protocol):
    """An app that runs a case again."""

    def action_rerun_case(self, eval_set_id: str, eval_id: str) -> Any:
        """Run case ``eval_id`` of eval set ``eval_set_id`` again."""
        ...


@runtime_checkable
class CaseContinuer(Protocol):
    """An app that continues a case's conversation in a chat with the agent."""

    def action_continue_conversation(self, eval_set_id: str, eval_id: str) -> Any:
        """Open a chat with the agent, case ``eval_id``'s user messages replayed first."""
        ...


_HOSTS: dict[str, type] = {
    EDIT_ACTION: CaseEditor,
    RERUN_ACTION: CaseRerunner,
    CONTINUE_ACTION: CaseContinuer,
}


def app_supports(app: App[Any], action: str) -> bool:
    """Whether ``app`` offers ``action`` (:data:`EDIT_ACTION`, :data:`RERUN_ACTION` or
    :data:`CONTINUE_ACTION`)."""
    host = _HOSTS.get(action)
    return host is not None and isinstance(app, host)


async def request_case_action(
    app: App[object], action: str, eval_set_id: str, eval_id: str
) -> bool:
    """Run the app's ``action`` on a case; ``False`` (and a notice) when the app lacks it."""
    if not app_supports(app, action):
        app.notify(f"This app has no {action.replace('_', ' ')} view.", severity="warning")
        return False
    await app.run_action(f"{action}({eval_set_id!r}, {eval_id!r})")
    return True
