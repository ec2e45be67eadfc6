"""The folder of what tenxeval-tui keeps from one run to the next to save time: what an
agent's files import (:mod:`~tenxeval_tui.evaluation.provenance.imports_cache`), the HTML
report's compiled templates (:mod:`~tenxeval_tui.evaluation.reporters.template_cache`), the
versions of what an agent imports (:mod:`~tenxeval_tui.evaluation.provenance.versions_cache`).
Everything in it only ever saves time: it may be deleted at any moment."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

ENV_CACHE_DIR = "TENXEVAL_CACHE_DIR"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$TENXEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/tenxeval-tui``, else
    ``~/.cache/tenxeval-tui``."""
    env = os.environ if environ is None else environ
    if explicit := env.get(ENV_CACHE_DIR):
        return Path(explicit)
    xdg = env.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tenxeval-tui"


def read_cache_json(path: Path) -> dict[str, Any]:
    """The JSON object in the cache file ``path``; empty when there is none, it cannot be
    read or it is not an object (a cache only saves time)."""
    try:
        raw = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def write_cache_file(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` whole: to a temporary file beside it, renamed over it (a
    reader sees the old file or the new one). A folder that cannot be written leaves it as
    it was (logged): ``False``."""
    import tempfile  # here: a process that only reads the cache does without it

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as exc:
        logger.debug("the cache file %s was not written: %s", path, exc)
        return False
    return True


__all__ = ["ENV_CACHE_DIR", "cache_dir", "read_cache_json", "write_cache_file"]
