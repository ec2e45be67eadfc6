"""Agents' schemas kept on disk from one workbench session to the next.

Reading an agent's schema starts a child process that imports the agent (:mod:`.agent_schema`):
a fresh interpreter, the agent's own imports (a graph library: most of a CPU-second), each
time the editor opens an eval set in a new session. The schema depends only on:

- the agent (its spec) and the folder it is imported from;
- the bytes of the agent's files in that folder (every module the child imported from it:
  the ``files`` of a :class:`~.agent_schema.SchemaResult`), checked by SHA-256, so a file
  touched but not changed (a checkout) still matches, and a changed one never does;
- what the import path holds (:func:`~tenxeval_tui.evaluation.files.install_state.install_state`:
  a package installed, upgraded or removed is a new state), the interpreter, and the
  modules of tenxeval-tui that describe an agent.

:class:`SchemaStore` keeps a schema read successfully under those; an agent that could not
be read, or whose files lie outside the folder (none to check), is not kept. What it does
not follow, like the in-memory cache: a file the agent reads that is not a module (a YAML of
tools), a module outside the folder. One JSON file, ``agent-schemas-v1.json``, in
:func:`~tenxeval_tui.evaluation.files.cache_folder.cache_dir`, written whole (a reader sees
the old file or the new one): it only ever saves time, and may be deleted at any moment.
No UI import.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.files.cache_folder import cache_dir, read_cache_json
from tenxeval_tui.evaluation.files.install_state import install_state, keep_for_install_state
from tenxeval_tui.evaluation.targets.schema import AgentSchema

FILE_NAME = "agent-schemas-v1.json"
LIMIT = 64
"""Entries kept at most; past it the file starts again from the last one."""


def file_digest(path: str) -> str | None:
    """The SHA-256 of the file's bytes (``None`` when it cannot be read)."""
    try:
        with open(path, "rb") as source:
            return hashlib.file_digest(source, "sha256").hexdigest()
    except OSError:
        return None


def _describing_code() -> list[str]:
    """The modifications times of the modules that describe an agent (a newer tenxeval-tui
    may describe the same agent differently)."""
    from tenxeval_tui.evaluation.targets import loader, schema
    from tenxeval_tui.runs import describe_agent

    times = []
    for module in (loader, schema, describe_agent):
        try:
            times.append(str(os.stat(str(module.__file__)).st_mtime_ns))
        except OSError:
            times.append("-")
    return times


def _import_path(folder: Path) -> list[str]:
    """The child's import path as far as the installs go: ``PYTHONPATH`` as it is now (the
    child's), then ``sys.path``, without the folder and the folders in it other than a
    virtual environment's (their times change as the project's files are saved; the agent's
    own files are checked one by one)."""
    entries = os.environ.get("PYTHONPATH", "").split(os.pathsep) + sys.path
    root = folder.resolve()
    kept: dict[str, None] = {}
    for entry in entries:
        if not entry:
            continue
        place = Path(entry).resolve()
        if not place.is_relative_to(root) or "site-packages" in place.parts:
            kept[str(place)] = None
    return list(kept)


class SchemaStore:
    """Agents' schemas by agent, folder, code and installs, read from and saved to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @staticmethod
    def _key(spec: str, folder: Path) -> tuple[str, float]:
        state, newest = install_state(_import_path(folder))
        parts = [spec, str(folder), state, *_describing_code()]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest(), newest

    def find(self, spec: str, folder: Path) -> tuple[AgentSchema, dict[str, float]] | None:
        """The schema kept for ``spec`` in ``folder`` and the agent's files with their
        modification times now, when every file holds the bytes it was read from and the
        installs are as they were; else ``None``."""
        key, _ = self._key(spec, folder)
        entry = read_cache_json(self.path).get(key)
        if not isinstance(entry, dict):
            return None
        digests = entry.get("files")
        if not isinstance(digests, dict) or not digests:
            return None
        files: dict[str, float] = {}
        for path, digest in digests.items():
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                return None
            if file_digest(path) != digest:
                return None
            files[path] = mtime
        try:
            schema = AgentSchema.model_validate(entry.get("schema"))
        except ValueError:
            return None
        return schema, files

    def keep(self, spec: str, folder: Path, schema: AgentSchema, files: dict[str, float]) -> None:
        """Keep ``schema``, read from ``files`` (path: modification time when read); not
        when a file changed since it was read (its bytes now are not what was read)."""
        if not files:
            return
        digests: dict[str, Any] = {}
        for path, mtime in files.items():
            digest = file_digest(path)
            try:
                unchanged = os.stat(path).st_mtime == mtime
            except OSError:
                return
            if digest is None or not unchanged:
                return
            digests[path] = digest
        key, newest = self._key(spec, folder)
        entry = {"schema": schema.model_dump(mode="json"), "files": digests}
        entries = read_cache_json(self.path)
        entries.pop(key, None)
        keep_for_install_state(self.path, entries, key, entry, newest, LIMIT)


def default_store() -> SchemaStore:
    """The store in :func:`cache_dir`."""
    return SchemaStore(cache_dir() / FILE_NAME)


__all__ = ["FILE_NAME", "SchemaStore", "default_store", "file_digest"]
