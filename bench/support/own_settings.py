"""A settings file and a state folder of the bench's own, for every bench that starts the app.

The workbench reads the user's settings file (``$TENXEVAL_CONFIG_DIR``, else
``~/.config/tenxeval-tui``) and keeps state (``$TENXEVAL_STATE_DIR``, else
``~/.local/state/tenxeval-tui``): a run started in it writes ``[last_run]`` to the settings
file, the newcomer's tip leaves its mark in the state folder, the reports' summaries are
kept there. A bench on the developer's own folders would write its runs into them, and
their theme, keys or ``[last_run]`` would change what it measures. :func:`own_settings`
points both at empty folders for as long as it lasts (processes started meanwhile inherit
them), as ``docs/scripts/screenshots.py`` does for the pictures.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The variables of the folders the app writes the user's settings and state to.
FOLDER_VARIABLES = ("TENXEVAL_CONFIG_DIR", "TENXEVAL_STATE_DIR")


@contextmanager
def own_settings() -> Iterator[Path]:
    """``TENXEVAL_CONFIG_DIR`` and ``TENXEVAL_STATE_DIR`` set to new empty folders (under
    the folder yielded) until the block ends; then set back as they were and the folders
    removed."""
    before = {name: os.environ.get(name) for name in FOLDER_VARIABLES}
    with tempfile.TemporaryDirectory(prefix="bench-settings-") as base:
        os.environ["TENXEVAL_CONFIG_DIR"] = str(Path(base) / "config")
        os.environ["TENXEVAL_STATE_DIR"] = str(Path(base) / "state")
        try:
            yield Path(base)
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


__all__ = ["FOLDER_VARIABLES", "own_settings"]
