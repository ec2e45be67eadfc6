"""Importing what lives as long as the process, without Python's cycle collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_FROZEN_AT_IMPORT = gc.get_freeze_count()
"""Objects frozen before this module was imported (the interpreter's own, at its start)."""


@contextmanager
def long_lived_imports() -> Iterator[None]:
    """Hold off the cycle collector while the modules of a command are imported, then
    hand everything they built to the oldest generation.

    The workbench's imports (Textual, pydantic models, ours) allocate some half a
    million objects; each of the ~130 young collections they triggered walked the new
    ones to find them alive, as modules and classes are for good: a sixth of the
    imports' CPU (40-60 ms of ``tenxeval-tui``'s start). ``gc.freeze()`` then
    ``gc.unfreeze()`` moves every tracked object to the oldest generation (two list
    moves): young collections skip them, full ones still see them.

    When something has frozen objects since this module was imported (``gc.freeze``: the
    workbench after its start, a worker its cases), only the pause is made: moving the
    new objects would unfreeze those. (The interpreter may freeze a few hundred of its
    own as it starts: those are moved with the rest, as
    :func:`~tenxeval_tui.evaluation.files.fileio.built_long_lived` does.)

    Standard library only, so that it can wrap the first import of anything else.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() <= _FROZEN_AT_IMPORT:  # else it would undo a freeze
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


__all__ = ["long_lived_imports"]
