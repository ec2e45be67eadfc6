"""A path as a run's messages and commands show it: from a folder when it is inside it."""

from __future__ import annotations

from pathlib import Path


def shown_path(path: Path, folder: Path | None) -> str:
    """``path`` relative to ``folder`` when it is inside it (a relative ``path`` against an
    absolute ``folder`` is not), else as it is; ``folder`` ``None``: as it is."""
    if folder is not None and path.is_relative_to(folder):
        return str(path.relative_to(folder))
    return str(path)


__all__ = ["shown_path"]
