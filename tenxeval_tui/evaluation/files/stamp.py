"""What says a file changed since it was last read: its size and modification time."""

from __future__ import annotations

import os
from pathlib import Path

FileStamp = tuple[int, int]
"""A file's version: its size and modification time (ns)."""


def file_stamp(path: str | Path) -> FileStamp | None:
    """``path``'s :data:`FileStamp`; ``None`` when it cannot be looked at (gone,
    unreadable). Take it before reading the file: a change while it is read is then seen
    at the next look."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


__all__ = ["FileStamp", "file_stamp"]
