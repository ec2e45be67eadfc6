"""What the installed distributions' lookups read, as a hash: the key of what is kept in the
cache folder while the installs stay as they were (the provenance's versions,
:mod:`~tenxeval_tui.evaluation.provenance.versions_cache`; whether pydantic has plugins,
:mod:`~tenxeval_tui.evaluation.pydantic_plugins`).

A lookup of the distributions (``importlib.metadata``) depends only on:

- which folders and files ``sys.path`` names, and the modification time of each (a
  distribution installed, removed or upgraded adds or removes an entry of its site folder:
  a new time), with the time of each ``*.dist-info`` / ``*.egg-info`` folder in it (an
  installer rewriting one in place renames new files into it: a new time too);
- the interpreter (its version and executable).

A state with a time a few seconds from now (:data:`RECENT_S`) is not to be kept: a change
made within the file system's timestamp granularity would not change the key.

Standard library only: it runs before pydantic is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.files.cache_folder import write_cache_file

RECENT_S = 2.0
"""A state with a modification time less than this many seconds old is not kept."""
_METADATA_FOLDERS = (".dist-info", ".egg-info")


def install_state(path: Sequence[str] | None = None) -> tuple[str, float]:
    """A hash of what the distributions' lookup on ``path`` (default ``sys.path``) reads
    (see the module), and the newest modification time it saw."""
    digest = hashlib.sha256(f"{sys.version}\0{sys.executable}\n".encode())
    newest = 0.0
    for entry in sys.path if path is None else path:
        place = os.path.abspath(entry or os.curdir)
        try:
            found = os.stat(place)
        except OSError:
            digest.update(f"{place}\0-\n".encode())
            continue
        digest.update(f"{place}\0{found.st_mtime_ns}\n".encode())
        newest = max(newest, found.st_mtime)
        if not stat.S_ISDIR(found.st_mode):
            continue
        try:
            names = sorted(os.listdir(place))
        except OSError:
            continue
        for name in names:
            if not name.endswith(_METADATA_FOLDERS):
                continue
            try:
                folder = os.stat(os.path.join(place, name))
            except OSError:
                continue
            digest.update(f"\t{name}\0{folder.st_mtime_ns}\n".encode())
            newest = max(newest, folder.st_mtime)
    return digest.hexdigest(), newest


def keep_for_install_state(
    path: Path, entries: dict[str, Any], key: str, value: object, newest: float, limit: int
) -> None:
    """Save ``value`` under ``key`` in the cache file ``path``, whose ``entries`` (as read)
    are kept beside it, unless the install state it was found in is too recent to key
    (``newest``, from :func:`install_state`, less than :data:`RECENT_S` ago). Past
    ``limit`` entries the file starts again from this one."""
    if time.time() - newest < RECENT_S:
        return
    kept = {} if len(entries) >= limit else dict(entries)
    kept[key] = value
    write_cache_file(path, json.dumps(kept, separators=(",", ":")))


__all__ = ["RECENT_S", "install_state", "keep_for_install_state"]
