"""Whether the newcomer's hint on the first screen was dismissed (remembered per user).

The mark is a file in the user's state folder: ``$TENXEVAL_STATE_DIR``, else
``$XDG_STATE_HOME/tenxeval-tui``, else ``~/.local/state/tenxeval-tui``. A folder that
cannot be written only means the hint shows again next time. UI-free.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

_MARK = "first-steps-dismissed"
log = logging.getLogger(__name__)


def state_dir() -> Path:
    """The folder holding the user's tenxeval-tui state."""
    explicit = os.environ.get("TENXEVAL_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "tenxeval-tui"


def hint_dismissed() -> bool:
    """Whether the user has hidden the first-steps hint before."""
    try:
        return (state_dir() / _MARK).exists()
    except OSError:
        return False


def dismiss_hint() -> None:
    """Remember that the hint was hidden (best effort)."""
    try:
        folder = state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / _MARK).write_text("hidden with x in the editor\n", encoding="utf-8")
    except OSError as exc:
        log.warning("cannot remember that the hint was hidden: %s", exc)
