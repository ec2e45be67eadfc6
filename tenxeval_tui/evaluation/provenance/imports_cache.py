"""What each file of an agent's code imports, kept on disk from one run to the next.

Working out ``agent_sha256`` (:mod:`.agent_code`) reads every file of the agent's code and
parses each for its imports; the parsing is most of the cost (a tenth to a quarter of a
second for a package of 60 files), and a run's worker waits for it before its first case
(issue #38). The names a file imports depend only on its bytes, its module name and
whether it is a package's ``__init__``: :class:`ImportsCache` keeps them by the SHA-256
of the bytes (which the walk computes anyway for the hash), so a file changed since is
parsed again, and an unchanged one never is. The files are still read and hashed on every
run: the hash is never taken from the cache.

One JSON file, ``agent-imports-v1.json``, in :func:`cache_dir`. Written whole to a
temporary file and renamed over it when a walk parsed something new; a file that cannot
be read (missing, torn, not ours) counts as empty, one that cannot be written is left as
it is: the cache only ever saves time.
"""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation.files.cache_folder import (
    ENV_CACHE_DIR,
    cache_dir,
    read_cache_json,
    write_cache_file,
)

FILE_NAME = "agent-imports-v1.json"
LIMIT = 4096
"""Entries kept at most; past it the cache starts again from what the last walk used."""

Key = tuple[str, str, bool]
"""``(SHA-256 of a file's bytes, its module, is it a package)``."""


def _text_key(key: Key) -> str:
    digest, module, is_package = key
    return f"{digest} {module} {int(is_package)}"


class ImportsCache:
    """The imported names of files, by :data:`Key`, read from and saved to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: dict[str, frozenset[str]] | None = None
        self._used: dict[str, frozenset[str]] = {}
        self._changed = False

    def _loaded(self) -> dict[str, frozenset[str]]:
        if self._entries is None:
            self._entries = {
                k: frozenset(v)
                for k, v in read_cache_json(self.path).items()
                if isinstance(v, list) and all(isinstance(n, str) for n in v)
            }
        return self._entries

    def get(self, key: Key) -> frozenset[str] | None:
        """The names kept for ``key``; ``None`` when there are none."""
        text = _text_key(key)
        names = self._loaded().get(text)
        if names is not None:
            self._used[text] = names
        return names

    def put(self, key: Key, names: frozenset[str]) -> None:
        """Keep ``names`` for ``key`` (saved by :meth:`save`)."""
        text = _text_key(key)
        self._loaded()[text] = self._used[text] = names
        self._changed = True

    def save(self) -> None:
        """Write the cache when :meth:`put` added to it since it was read or saved."""
        if not self._changed:
            return
        entries = self._loaded()
        if len(entries) > LIMIT:
            entries = self._entries = dict(self._used)
        self._changed = False
        data = json.dumps({k: sorted(v) for k, v in entries.items()}, separators=(",", ":"))
        write_cache_file(self.path, data)


def default_cache() -> ImportsCache:
    """The cache in :func:`cache_dir`."""
    return ImportsCache(cache_dir() / FILE_NAME)


__all__ = ["ENV_CACHE_DIR", "FILE_NAME", "ImportsCache", "cache_dir", "default_cache"]
