"""The judge reply cache on disk: lookups, expiry, a size cap, and list / clear / prune.

One JSON file per (endpoint, model, temperature, prompt, sample index), under
``<folder>/<2 hex>/<sha256>.json``, written atomically (:func:`~.fileio.atomic_write_text`,
flushed to disk before the rename). The folder holds a ``.gitignore`` of ``*``, as
pytest's and ruff's caches do, so it never shows up in ``git status``.

The functions at the bottom (:func:`cache_summary`, :func:`clear_cache`,
:func:`prune_cache`) are what ``tenxeval-tui cache list|clear|prune`` calls.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.files.fileio import atomic_write_text
from tenxeval_tui.evaluation.judges.reply import JudgeReply
from tenxeval_tui.evaluation.token_usage import TokenUsage

ENV_CACHE_DIR = "TENXEVAL_JUDGE_CACHE_DIR"
DEFAULT_CACHE_DIR = Path(".tenxeval_cache") / "judge"
GITIGNORE = "# Created by tenxeval-tui: the judge reply cache.\n*\n"
PRUNE_TO = 0.9
"""Over its size cap, the cache is pruned to this share of the cap (not to just under it,
which would prune again at the next write)."""


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$TENXEVAL_JUDGE_CACHE_DIR``, else ``.tenxeval_cache/judge`` in the working folder."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_CACHE_DIR)
    return Path(value) if value else Path.cwd() / DEFAULT_CACHE_DIR


@dataclass(frozen=True)
class CacheEntry:
    """One stored reply as found on disk (``model`` is ``""`` for an unreadable entry)."""

    path: Path
    size: int
    created: float
    model: str
    readable: bool


class JudgeCache:
    """Judge replies on disk, one JSON file per (model, temperature, prompt, sample index).

    Only replies that parsed are stored, so a malformed answer is asked again on the
    next run. A hit costs no tokens. ``clock`` gives the time entries are stamped and
    aged with (``time.time``; tests pass their own).
    """

    def __init__(self, directory: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self._clock = clock
        self._size: int | None = None  # bytes on disk, known after the first capped write
        self._size_lock = threading.Lock()

    @staticmethod
    def key(
        model: str,
        prompt: str,
        sample: int,
        temperature: float = 0.0,
        base_url: str | None = None,
    ) -> str:
        """The cache key (a SHA-256 hex digest); ``base_url`` keeps servers apart."""
        fields: dict[str, Any] = {
            "model": model,
            "prompt": prompt,
            "sample": sample,
            "temperature": temperature,
        }
        if base_url:  # the OpenAI API itself keeps the keys it always had
            fields["base_url"] = base_url.rstrip("/")
        blob = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, *, ttl: float | None = None) -> JudgeReply | None:
        """The stored reply, or ``None``: also for an unreadable entry (ignored) and for one
        older than ``ttl`` seconds (removed, so that the new reply replaces it)."""
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            text = data["text"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(text, str):
            return None
        if ttl is not None and self._clock() - _created(data, path) > ttl:
            path.unlink(missing_ok=True)
            return None
        return JudgeReply(text=text, token_usage=TokenUsage(), cached=True)

    def forget(self, key: str) -> None:
        """Remove an entry (one that no longer parses is asked again)."""
        self._path(key).unlink(missing_ok=True)

    def put(self, key: str, model: str, reply: JudgeReply, *, max_bytes: int | None = None) -> None:
        """Store ``reply`` atomically (readers never see half a file; it is on disk before
        it is renamed into place). With ``max_bytes``, a cache grown past it is pruned,
        oldest entries first, to 90 % of it."""
        self._ensure_gitignore()
        payload = json.dumps(
            {
                "model": model,
                "text": reply.text,
                "token_usage": reply.token_usage.to_dict(),
                "created": self._clock(),
            }
        )
        path = self._path(key)
        atomic_write_text(path, payload)
        if max_bytes is None:
            return
        with self._size_lock:  # judge pools write from worker threads
            if self._size is None:
                self._size = sum(entry.size for entry in cache_entries(self.directory))
            else:
                self._size += len(payload.encode("utf-8"))
            if self._size > max_bytes:
                prune_cache(self.directory, max_bytes=int(max_bytes * PRUNE_TO), keep=path)
                self._size = None  # counted again at the next capped write

    def _ensure_gitignore(self) -> None:
        marker = self.directory / ".gitignore"
        if not marker.exists():
            self.directory.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError), marker.open("x", encoding="utf-8") as f:
                f.write(GITIGNORE)


def _created(data: Any, path: Path) -> float:
    """When an entry was stored: its ``created`` stamp, else its file's modification time."""
    stamp = data.get("created") if isinstance(data, dict) else None
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        return float(stamp)
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


_ENTRY_NAME = re.compile(r"([0-9a-f]{2})[0-9a-f]{62}\.json")


def _entry_files(directory: Path) -> Iterator[Path]:
    """The cache's entry files: ``<2 hex>/<sha256>.json`` whose name starts with its
    shard's, and nothing else (``cache clear --dir`` pointed at the wrong folder must not
    remove someone's ``db/schema.json``)."""
    try:
        shards = [p for p in directory.iterdir() if p.is_dir() and len(p.name) == 2]
    except OSError:
        return
    for shard in shards:
        with contextlib.suppress(OSError):
            for path in shard.iterdir():
                match = _ENTRY_NAME.fullmatch(path.name)
                if match and match.group(1) == shard.name and path.is_file():
                    yield path


def cache_entries(directory: str | Path) -> list[CacheEntry]:
    """Every entry of the cache in ``directory``, oldest first (none when it does not exist)."""
    entries = []
    for path in _entry_files(Path(directory)):
        try:
            size = path.stat().st_size
        except OSError:
            continue  # removed meanwhile
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        readable = isinstance(data, dict) and isinstance(data.get("text"), str)
        model = str(data.get("model", "")) if readable and isinstance(data, dict) else ""
        entries.append(CacheEntry(path, size, _created(data, path), model, readable))
    entries.sort(key=lambda entry: entry.created)
    return entries


@dataclass
class CacheSummary:
    """What the cache holds: entries and bytes, per judge model, oldest and newest."""

    directory: Path
    entries: int = 0
    bytes: int = 0
    unreadable: int = 0
    oldest: float | None = None
    newest: float | None = None
    by_model: dict[str, tuple[int, int]] = field(default_factory=dict)
    """model -> (entries, bytes)."""


def cache_summary(directory: str | Path) -> CacheSummary:
    """A summary of the cache in ``directory`` (``cache list``)."""
    summary = CacheSummary(Path(directory))
    for entry in cache_entries(directory):
        summary.entries += 1
        summary.bytes += entry.size
        if not entry.readable:
            summary.unreadable += 1
            continue
        count, size = summary.by_model.get(entry.model, (0, 0))
        summary.by_model[entry.model] = (count + 1, size + entry.size)
        summary.oldest = entry.created if summary.oldest is None else summary.oldest
        summary.newest = entry.created
    return summary


@dataclass(frozen=True)
class Removed:
    """What :func:`clear_cache` or :func:`prune_cache` removed."""

    entries: int
    bytes: int


def clear_cache(directory: str | Path) -> Removed:
    """Remove every entry (and empty shard folders) of the cache in ``directory``
    (``cache clear``); the folder and its ``.gitignore`` stay."""
    removed = _remove(cache_entries(directory))
    _drop_empty_shards(Path(directory))
    return removed


def prune_cache(
    directory: str | Path,
    *,
    older_than: float | None = None,
    max_bytes: int | None = None,
    now: float | None = None,
    keep: Path | None = None,
) -> Removed:
    """Remove what the cache should no longer hold (``cache prune``).

    Unreadable entries always go; so do entries stored more than ``older_than``
    seconds before ``now`` (default: the current time); then, while the cache is
    larger than ``max_bytes``, the oldest entries (never ``keep``).
    """
    entries = cache_entries(directory)
    moment = time.time() if now is None else now
    doomed = [
        e
        for e in entries
        if not e.readable or (older_than is not None and moment - e.created > older_than)
    ]
    left = [e for e in entries if e not in doomed]
    if max_bytes is not None:
        size = sum(e.size for e in left)
        for entry in left:
            if size <= max_bytes:
                break
            if entry.path != keep:
                doomed.append(entry)
                size -= entry.size
    removed = _remove(doomed)
    _drop_empty_shards(Path(directory))
    return removed


def _remove(entries: list[CacheEntry]) -> Removed:
    count = size = 0
    for entry in entries:
        try:
            entry.path.unlink()
        except OSError:  # gone already, or not ours to remove
            continue
        count += 1
        size += entry.size
    return Removed(count, size)


def _drop_empty_shards(directory: Path) -> None:
    with contextlib.suppress(OSError):
        for shard in directory.iterdir():
            if shard.is_dir() and len(shard.name) == 2:
                with contextlib.suppress(OSError):
                    shard.rmdir()  # only when empty
