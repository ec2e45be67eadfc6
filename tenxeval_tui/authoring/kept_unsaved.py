"""Unsaved work kept beside its file when the workbench's terminal went away.

Nobody is left to ask whether to save, so nothing is written over the user's files:
the editor's unsaved eval set goes to ``<file>.unsaved`` (the file as saving would
write it) and the recorded-calls dialog's draft (f8) to
``<cassette>.<case>.unsaved.json`` (the texts of its fields as typed, checked or not).
The next start lists what it finds (:func:`find_kept`). No UI import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

KEPT_SUFFIX = ".unsaved"
"""What the name of a file kept this way ends with (before ``.json`` for a draft)."""


def kept_file_path(path: Path) -> Path:
    """Where the unsaved version of the file ``path`` is kept: ``<file>.unsaved``."""
    return path.with_name(f"{path.name}{KEPT_SUFFIX}")


def kept_draft_path(cassette: Path, case: str) -> Path:
    """Where the unsaved draft of case ``case``'s recorded calls is kept, beside
    ``cassette``: ``<cassette>.<case>.unsaved.json`` (the id made safe for a file name)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", case).strip(".")[:80] or "case"
    return cassette.with_name(f"{cassette.name}.{safe}{KEPT_SUFFIX}.json")


def find_kept(folders: Iterable[Path]) -> list[Path]:
    """The kept files in ``folders`` (not their subfolders), sorted."""
    found: set[Path] = set()
    for folder in folders:
        for pattern in (f"*{KEPT_SUFFIX}", f"*{KEPT_SUFFIX}.json"):
            found.update(path for path in folder.glob(pattern) if path.is_file())
    return sorted(found)


__all__ = ["KEPT_SUFFIX", "find_kept", "kept_draft_path", "kept_file_path"]
