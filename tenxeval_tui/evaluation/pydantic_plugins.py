"""Pydantic's plugin lookup answered from the cache folder while the installs stay as they
were (issue #38).

The first pydantic model a process builds looks for pydantic plugins: its loader
(``pydantic.plugin._loader``) imports ``importlib.metadata`` (``email``, ``zipfile``, ...)
and reads the entry points of every installed distribution, some 25 ms of CPU that
``tenxeval-tui run`` spent before it forked its worker, on the way to the first case; a
plain run needs ``importlib.metadata`` for nothing else. What the lookup finds depends only
on the installs (:func:`~tenxeval_tui.evaluation.files.install_state.install_state`).

:func:`known_pydantic_plugins` wraps a process's first model builds. When the file
``pydantic-plugins-v1.json`` in the cache folder says the install state of now has no
pydantic plugin, pydantic's loader is imported with a stand-in for ``importlib.metadata``
that imports the real one only if it is ever called, and is told it found none: the answer
its lookup would have given. Otherwise pydantic looks as it always does, and what it found
is kept for the next process (a state with a time a few seconds from now is not). The
loader is left as pydantic makes it whenever it is not as expected (another pydantic), and
nothing is done when ``PYDANTIC_DISABLE_PLUGINS`` is set or the loader is imported already.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.files.cache_folder import cache_dir, read_cache_json
from tenxeval_tui.evaluation.files.install_state import install_state, keep_for_install_state

FILE_NAME = "pydantic-plugins-v1.json"
LIMIT = 64
"""Entries kept at most; past it the file starts again from the last one."""
LOADER = "pydantic.plugin._loader"
_METADATA = "importlib.metadata"
_DISABLE = "PYDANTIC_DISABLE_PLUGINS"


@contextmanager
def known_pydantic_plugins(path: Path | None = None) -> Iterator[None]:
    """Build the models of the block with pydantic's plugin lookup answered from ``path``
    (default: ``pydantic-plugins-v1.json`` in the cache folder) when it knows the install
    state of now, else keep what pydantic found (see the module)."""
    if LOADER in sys.modules or os.environ.get(_DISABLE) is not None:
        yield
        return
    path = cache_dir() / FILE_NAME if path is None else path
    state, newest = install_state()
    entries = read_cache_json(path)
    if entries.get(state) == [] and _loader_told_none():
        yield
        return
    yield
    found = getattr(sys.modules.get(LOADER), "_plugins", None)
    if isinstance(found, dict):
        names = sorted(str(value) for value in found)
        keep_for_install_state(path, entries, state, names, newest, LIMIT)


def _loader_told_none() -> bool:
    """Import pydantic's plugin loader without ``importlib.metadata`` and tell it that it
    found no plugin; ``False`` (the loader left to look as it does) when it is not the
    loader this expects."""

    def entry_points(**selection: Any) -> Any:  # only if the loader looks again after all
        return importlib.import_module(_METADATA).entry_points(**selection)

    stand_in = types.ModuleType(_METADATA)
    stand_in.entry_points = entry_points  # type: ignore[attr-defined]
    sys.modules[_METADATA] = stand_in
    try:
        loader = importlib.import_module(LOADER)
    except ImportError:
        return False
    finally:
        if sys.modules.get(_METADATA) is stand_in:
            del sys.modules[_METADATA]
    if (
        getattr(loader, "entry_points", None) is entry_points
        and getattr(loader, "_plugins", 0) is None
    ):
        loader._plugins = {}  # type: ignore[attr-defined]  # pydantic's cache of what it found
        return True
    del sys.modules[LOADER]  # not what this expects: imported again, as pydantic does
    return False


__all__ = ["FILE_NAME", "LOADER", "known_pydantic_plugins"]
