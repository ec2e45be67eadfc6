"""The workbench's side of the user's settings file: theme, key rebindings, the last run.

:class:`Preferences` loads ``settings.toml`` once (see
:mod:`tenxeval_tui.settings.user_settings`), hands the app its theme
(``$TENXEVAL_THEME`` first) and its keymap (``[keys]``: binding id = keys), and writes
back what the user changes in the app: the theme as soon as it changes, the run view's
options when a run starts. Problems (a file that does not load, a theme or binding id
that does not exist, a write that fails) are kept as messages for the app to show; none
of them stops the app.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from textual.binding import Binding, BindingType

from tenxeval_tui.settings.layers import BY_NAME
from tenxeval_tui.settings.user_settings import (
    load_user_settings,
    save_user_settings,
    settings_path,
)


class Preferences:
    """The user's settings as the workbench uses them."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = settings_path() if path is None else path
        self.settings, problems = load_user_settings(self.path)
        self.problems: list[str] = [str(p) for p in problems]
        if problems:
            self.problems.append(f"{self.path}: ignored until it is fixed")
        self.saved_theme = self.settings.theme
        self.starting_theme: str | None = None
        """The theme the app is switching to at start (from the environment or the file):
        its change is no choice of the user's, so it is not saved."""

    @property
    def theme(self) -> str | None:
        """The theme to start with: ``$TENXEVAL_THEME``, else the file's ``theme``."""
        return os.environ.get(BY_NAME["theme"].env, "").strip() or self.settings.theme

    @property
    def keymap(self) -> dict[str, str]:
        """The file's ``[keys]``: binding id -> keys (``"ctrl+s,f2"``)."""
        return dict(self.settings.keys)

    def unknown_binding_ids(self, known: Iterable[str]) -> list[str]:
        """The ``[keys]`` entries that name no binding, as messages."""
        ids = set(known)
        return [
            f"{self.path}: keys.{name}: no key binding has this id "
            f"(known: {', '.join(sorted(ids))})"
            for name in self.settings.keys
            if name not in ids
        ]

    def save_theme(self, name: str) -> str | None:
        """Remember ``name`` as the theme; the problem when it cannot be written."""
        if name == self.starting_theme:
            self.starting_theme = None
            return None
        if name == self.saved_theme:
            return None
        problem = save_user_settings({"theme": name}, self.path)
        if problem is None:
            self.saved_theme = name
            return None
        return f"the theme is not remembered: {problem}"

    def save_last_run(self, values: dict[str, Any]) -> str | None:
        """Remember the run view's options (``agent``, ``concurrency``, ``preset``)."""
        problem = save_user_settings({f"last_run.{k}": v for k, v in values.items()}, self.path)
        return None if problem is None else f"the run options are not remembered: {problem}"


def binding_ids(bindings: Iterable[BindingType]) -> list[str]:
    """The ids of those ``bindings`` that have one."""
    return [b.id for b in bindings if isinstance(b, Binding) and b.id]


def rebound(bindings: Sequence[BindingType], keymap: dict[str, str]) -> list[BindingType]:
    """``bindings`` with the keys of ``keymap`` (by binding id) in place of their own, as the
    footer shows them, for the help screen and the palette."""
    return [
        dataclasses.replace(b, key=keymap[b.id]) if isinstance(b, Binding) and b.id in keymap else b
        for b in bindings
    ]


__all__ = ["Preferences", "binding_ids", "rebound"]
