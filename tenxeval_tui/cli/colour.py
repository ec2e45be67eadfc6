"""Whether the command's output gets colour: the ``NO_COLOR`` and ``FORCE_COLOR`` conventions.

``NO_COLOR`` (any non-empty value, https://no-color.org) turns colour off; ``FORCE_COLOR``
(any non-empty value but ``0``, as Node, pytest and rich read it) turns it on even when
the output is a pipe or a CI log; with neither, colour follows whether the stream is a
terminal. ``NO_COLOR`` wins when both are set.
"""

from __future__ import annotations

import os
from typing import TextIO


def colour_forced() -> bool:
    """Whether ``FORCE_COLOR`` asks for colour (and ``NO_COLOR`` does not forbid it)."""
    forced = os.environ.get("FORCE_COLOR", "")
    return bool(forced) and forced != "0" and not os.environ.get("NO_COLOR")


def colour_wanted(stream: TextIO) -> bool:
    """Whether output written to ``stream`` should be coloured."""
    if os.environ.get("NO_COLOR"):
        return False
    if colour_forced():
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


__all__ = ["colour_forced", "colour_wanted"]
