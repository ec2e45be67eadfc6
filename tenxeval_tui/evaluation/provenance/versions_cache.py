"""A provenance's ``versions`` kept on disk from one run to the next, while the installs
they were read from stay as they were.

Finding the versions of what an agent imports (:func:`.agent_provenance.versions`) looks
each module up among the installed distributions: every ``top_level.txt`` read, each
distribution searched for on ``sys.path`` and its ``METADATA`` read, about 0.02
CPU-seconds a run in the forked child that hashes the agent while the worker imports it,
on a 2-core machine a share of a core the worker's path to its first case lost (issue
#38). The answer depends only on the modules asked for and on what the import path holds:

- which folders and files ``sys.path`` names, and the modification time of each (a
  distribution installed, removed or upgraded adds or removes an entry of its site folder:
  a new time), with the time of each ``*.dist-info`` / ``*.egg-info`` folder in it (an
  installer rewriting one in place renames new files into it: a new time too);
- the interpreter (its version and executable).

:class:`VersionsCache` keeps ``versions`` by a hash of those (:func:`install_state`) and
of the modules: a changed install is a new key, read afresh. A state with a time a few
seconds from now is not kept (a change made within the file system's timestamp
granularity would not change the key). One JSON file, ``versions-v1.json``, in
:func:`cache_dir`, written like the agent imports' cache (:mod:`.imports_cache`): it only
ever saves time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

from tenxeval_tui.evaluation.files.cache_folder import cache_dir, read_cache_json
from tenxeval_tui.evaluation.files.install_state import install_state, keep_for_install_state

FILE_NAME = "versions-v1.json"
LIMIT = 64
"""Entries kept at most; past it the file starts again from the last one."""


class VersionsCache:
    """``versions`` by install state and modules, read from and saved to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def versions(
        self, imports: Iterable[str], find: Callable[[Iterable[str]], dict[str, str]]
    ) -> dict[str, str]:
        """``find(imports)``, taken from the file when it holds it for the install state
        of now (see the module), else found and kept."""
        modules = sorted(set(imports))
        state, newest = install_state()
        key = hashlib.sha256("\n".join([state, *modules]).encode()).hexdigest()
        entries = read_cache_json(self.path)
        kept = entries.get(key)
        if isinstance(kept, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in kept.items()
        ):
            return dict(kept)
        found = find(modules)
        keep_for_install_state(self.path, entries, key, found, newest, LIMIT)
        return found


def default_versions_cache() -> VersionsCache:
    """The cache in :func:`cache_dir`."""
    return VersionsCache(cache_dir() / FILE_NAME)


__all__ = ["FILE_NAME", "VersionsCache", "default_versions_cache", "install_state"]
