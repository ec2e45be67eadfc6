"""Where a report folder's history index lives: standard library only, so that a caller
can look for the index without importing what reads and writes it (:mod:`.index`)."""

from __future__ import annotations

from pathlib import Path

INDEX_NAME = ".tenxeval-history.sqlite"


def index_path(folder: Path) -> Path:
    """Where the history index of ``folder`` lives."""
    return folder / INDEX_NAME


__all__ = ["INDEX_NAME", "index_path"]
