"""Who is reviewing verdicts, and whether the judge's verdict shows before they label.

The reviewer's name goes on every label they give (``NAME.labels.jsonl``); it comes from
``$TENXEVAL_REVIEWER``, else ``[review] reviewer`` of the user's ``settings.toml``, else
the login name. ``$TENXEVAL_REVIEW_SHOW_VERDICTS`` / ``[review] show_verdicts`` turn blind
review off. A person's own settings: a project's ``[tool.tenxeval]`` sets neither. No UI.
"""

from __future__ import annotations

import getpass
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.settings.layers import BY_NAME, resolve
from tenxeval_tui.settings.user_settings import UserSettings

UNKNOWN_REVIEWER = "unknown"
"""The name on labels when no setting names the reviewer and the login name is unknown."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """The reviewer's name (and where it came from) and the blind-review setting."""

    reviewer: str
    reviewer_from: str
    """``$TENXEVAL_REVIEWER``, ``…/settings.toml review.reviewer`` or ``login name``."""
    show_verdicts: bool
    """Show the judge's verdict before the case is labelled (blind review off)."""


def login_name() -> str:
    """The user's login name, or :data:`UNKNOWN_REVIEWER` when the system does not know it."""
    try:
        return getpass.getuser() or UNKNOWN_REVIEWER
    except (OSError, KeyError):  # no $USER and no password-file entry (some containers)
        return UNKNOWN_REVIEWER


def review_settings(
    environ: Mapping[str, str], user: UserSettings, user_file: Path | None = None
) -> ReviewSettings:
    """The review settings from the environment and the user's file; a variable that does
    not parse raises :class:`~tenxeval_tui.settings.layers.SettingsError` naming it."""
    name = resolve(BY_NAME["reviewer"], None, environ, None, user, user_file)
    show = resolve(BY_NAME["review_show_verdicts"], None, environ, None, user, user_file)
    if name.value is None:
        return ReviewSettings(login_name(), "login name", bool(show.value))
    return ReviewSettings(str(name.value), name.where, bool(show.value))


__all__ = ["UNKNOWN_REVIEWER", "ReviewSettings", "login_name", "review_settings"]
