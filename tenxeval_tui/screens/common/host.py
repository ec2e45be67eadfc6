"""What a screen may ask of the app that hosts it, as a typed interface.

:class:`~tenxeval_tui.app.WorkbenchApp` is the host the screens are made for; it
satisfies :class:`WorkbenchHost` structurally (no import of the app here, which
imports the screens). A screen hosted by another app (a test's, a benchmark's) gets a
:class:`StandaloneHost` with the defaults instead, so screens never probe the app with
``getattr``.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from textual.app import App

from tenxeval_tui.screens.common.preferences import Preferences
from tenxeval_tui.settings.workspace import Workspace, open_workspace

LeaveGuard = Callable[[], Awaitable[bool]]
"""An async check asked before quitting; it returns ``False`` to keep the app open."""


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

    @property
    def preferences(self) -> Preferences:
        """The user's settings file (theme, keys, the run view's last options)."""
        ...

    @property
    def switching_mode(self) -> bool:
        """Whether the app is switching modes right now (see ``mode_screen.ModeScreen``)."""
        ...


class StandaloneHost:
    """The host of a screen in an app that is not the workbench: the current folder's
    workspace, files followed, no mode to go back to, nothing asked before quitting."""

    watch_files = True
    watch_runs = False
    can_go_back = False
    switching_mode = False

    def __init__(self) -> None:
        self._workspace: Workspace | None = None
        self._preferences: Preferences | None = None

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


_standalone: weakref.WeakKeyDictionary[App[Any], StandaloneHost] = weakref.WeakKeyDictionary()


def host_of(app: App[Any]) -> WorkbenchHost:
    """``app`` itself when it is a workbench host, else its (one) standalone host."""
    if isinstance(app, WorkbenchHost):
        return app
    host = _standalone.get(app)
    if host is None:
        host = _standalone[app] = StandaloneHost()
    return host


__all__ = ["LeaveGuard", "StandaloneHost", "WorkbenchHost", "host_of"]
