"""What a screen may ask of the app that hosts it: one typed interface, and messages.

:class:`~tenxeval_tui.app.WorkbenchApp` is the host the screens are made for; it
satisfies :class:`WorkbenchHost` structurally (no import of the app here, which
imports the screens). A screen hosted by another app (a test's, a benchmark's) gets a
:class:`StandaloneHost` with the defaults instead, so screens never probe the app with
``getattr``.

What a screen asks the app to *do* and needs no answer to goes up as a message the
screen posts (:class:`CaseRequest`: edit a case, run it again, continue its
conversation), which the app handles like any other Textual message; what needs an
answer (accepting a run into its case: written, or why not) is a method of the host.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from textual.app import App
from textual.message import Message

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.common.preferences import Preferences
from tenxeval_tui.settings.workspace import Workspace, open_workspace

LeaveGuard = Callable[[], Awaitable[bool]]
"""An async check asked before quitting; it returns ``False`` to keep the app open."""

HangUpKeeper = Callable[[], Awaitable[str | None]]
"""Keeps a screen's unsaved work when the terminal went away and nobody can be asked;
returns where it went (``None``: there was none)."""

EDIT_ACTION = "edit_case"
RERUN_ACTION = "rerun_case"
CONTINUE_ACTION = "continue_conversation"
CASE_ACTIONS = frozenset({EDIT_ACTION, RERUN_ACTION, CONTINUE_ACTION})
"""What a :class:`CaseRequest` may ask: each is also an action of the workbench app."""


class CaseRequest(Message):
    """A screen asks the app to act on one case: ``action`` (one of
    :data:`CASE_ACTIONS`: edit it, run it again, continue its conversation) the case
    ``eval_id`` of the eval set ``eval_set_id``. Posted by the screen, handled by the app
    (``on_case_request``)."""

    def __init__(self, action: str, eval_set_id: str, eval_id: str) -> None:
        super().__init__()
        self.action = action
        self.eval_set_id = eval_set_id
        self.eval_id = eval_id


class FlakinessRequest(Message):
    """A screen asks the app to show the cases of eval set ``eval_set_id`` ranked by how
    unstable they are over the reports in ``folder`` (the editor's ``h``); handled by the
    app (``on_flakiness_request``), which owns the screens of every mode."""

    def __init__(self, folder: Path, eval_set_id: str) -> None:
        super().__init__()
        self.folder = folder
        self.eval_set_id = eval_set_id


@runtime_checkable
class WorkbenchHost(Protocol):
    """The services of the workbench app that its screens use."""

    @property
    def workspace(self) -> Workspace:
        """The workspace: eval set files, settings, output folder."""
        ...

    @property
    def watch_files(self) -> bool:
        """Whether screens follow the files they show as they change on disk."""
        ...

    @property
    def watch_runs(self) -> bool:
        """Whether the run view starts with watch mode on (``tenxeval-tui --watch``)."""
        ...

    @property
    def can_go_back(self) -> bool:
        """Whether ``esc`` at a mode's first screen has a mode to return to."""
        ...

    async def go_back(self) -> None:
        """Return to the mode this one was reached from."""
        ...

    def register_leave_guard(self, guard: LeaveGuard) -> None:
        """Ask ``guard`` before quitting."""
        ...

    def register_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """Call ``keeper`` before exiting because the terminal went away."""
        ...

    def forget_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """Call ``keeper`` no more (what it kept is gone: its screen closed)."""
        ...

    @property
    def preferences(self) -> Preferences:
        """The user's settings file (theme, keys, the run view's last options)."""
        ...

    @property
    def switching_mode(self) -> bool:
        """Whether the app is switching modes right now (see ``mode_screen.ModeScreen``)."""
        ...

    @property
    def case_requests(self) -> frozenset[str]:
        """The :class:`CaseRequest` actions the app answers (a key asking another is
        shown disabled)."""
        ...

    @property
    def accepts_in_editor(self) -> bool:
        """Whether an accepted run is written through the editor (``ctrl+z`` there
        undoes it) rather than straight to the file."""
        ...

    async def accept_actual(
        self, path: Path, run: EvalCaseResult, parts: tuple[str, ...]
    ) -> str | None:
        """Write ``run``'s ``parts`` as its case's expectations in ``path``; why not, or
        ``None`` when saved."""
        ...

    async def accept_actual_many(
        self, path: Path, runs: list[EvalCaseResult], parts: tuple[str, ...]
    ) -> str | None:
        """Write each run's ``parts`` as its case's expectations in ``path`` (one undo
        step); why not, or ``None`` when saved."""
        ...


class StandaloneHost:
    """The host of a screen in an app that is not the workbench: the current folder's
    workspace, files followed, no mode to go back to, nothing asked before quitting,
    case requests answered when the app handles :class:`CaseRequest` itself, accepted
    runs written straight to their file (a document of its own, one atomic save)."""

    watch_files = True
    watch_runs = False
    can_go_back = False
    switching_mode = False
    accepts_in_editor = False

    def __init__(self, app: App[Any]) -> None:
        self._workspace: Workspace | None = None
        self._preferences: Preferences | None = None
        handles = callable(getattr(type(app), CaseRequest.handler_name, None))
        self.case_requests = CASE_ACTIONS if handles else frozenset()

    @property
    def preferences(self) -> Preferences:
        """The user's settings file (read when first asked for)."""
        if self._preferences is None:
            self._preferences = Preferences()
        return self._preferences

    @property
    def workspace(self) -> Workspace:
        """The workspace of the current folder (opened when first asked for)."""
        if self._workspace is None:
            self._workspace = open_workspace(".")
        return self._workspace

    async def go_back(self) -> None:
        """Nowhere to go back to."""

    def register_leave_guard(self, guard: LeaveGuard) -> None:
        """Nothing asks before quitting an app that is not the workbench."""

    def register_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """An app that is not the workbench does not watch its terminal go away."""

    def forget_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """Nothing was registered."""

    async def accept_actual(
        self, path: Path, run: EvalCaseResult, parts: tuple[str, ...]
    ) -> str | None:
        """Write ``run``'s ``parts`` into ``path`` through a document of its own."""
        # Imported when first used: the workbench's start loads none of accepting.
        from tenxeval_tui.authoring.accept_actual import apply_accept, plan_accept
        from tenxeval_tui.evaluation.actual import NotAcceptable

        try:
            document = EvalSetDocument.load(path)
            problems = apply_accept(document, plan_accept(document, run, parts))
        except EvalFileError as exc:
            return str(exc.first)
        except (NotAcceptable, OSError) as exc:
            return str(exc)
        return "Not saved: " + "; ".join(problems) if problems else None

    async def accept_actual_many(
        self, path: Path, runs: list[EvalCaseResult], parts: tuple[str, ...]
    ) -> str | None:
        """Write each of ``runs``' ``parts`` into ``path`` through a document of its own."""
        from tenxeval_tui.authoring.accept_many import apply_accept_many, plan_accept_many

        try:
            document = EvalSetDocument.load(path)
            problems = apply_accept_many(document, plan_accept_many(document, runs, parts))
        except EvalFileError as exc:
            return str(exc.first)
        except OSError as exc:
            return str(exc)
        return "Not saved: " + "; ".join(problems) if problems else None


_standalone: weakref.WeakKeyDictionary[App[Any], StandaloneHost] = weakref.WeakKeyDictionary()


def host_of(app: App[Any]) -> WorkbenchHost:
    """``app`` itself when it is a workbench host, else its (one) standalone host."""
    if isinstance(app, WorkbenchHost):
        return app
    host = _standalone.get(app)
    if host is None:
        host = _standalone[app] = StandaloneHost(app)
    return host


__all__ = [
    "CASE_ACTIONS",
    "CONTINUE_ACTION",
    "EDIT_ACTION",
    "RERUN_ACTION",
    "CaseRequest",
    "FlakinessRequest",
    "HangUpKeeper",
    "LeaveGuard",
    "StandaloneHost",
    "WorkbenchHost",
    "host_of",
]
