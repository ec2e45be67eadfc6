"""The folder of what tenxeval-tui keeps from one run to the next to save time: what an
agent's files import (:mod:`~tenxeval_tui.evaluation.provenance.imports_cache`), the HTML
report's compiled templates (:mod:`~tenxeval_tui.evaluation.reporters.template_cache`).
Everything in it only ever saves time: it may be deleted at any moment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV_CACHE_DIR = "TENXEVAL_CACHE_DIR"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$TENXEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/tenxeval-tui``, else
    ``~/.cache/tenxeval-tui``."""
    env = os.environ if environ is None else environ
    if explicit := env.get(ENV_CACHE_DIR):
        return Path(explicit)
    xdg = env.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tenxeval-tui"


__all__ = ["ENV_CACHE_DIR", "cache_dir"]
