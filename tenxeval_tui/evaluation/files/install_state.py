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
import os
import stat
import sys
from collections.abc import Sequence

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


__all__ = ["RECENT_S", "install_state"]
