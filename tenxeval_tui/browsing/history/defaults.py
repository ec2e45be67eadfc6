"""The history's defaults, in a module of their own: the command line's help text reads
them without loading the index, the models or SQLite."""

from __future__ import annotations

LAST_RUNS = 10
"""Runs ``history`` shows (and its case strips cover) by default."""
ALPHA = 0.05
"""The trend gate's false-alarm rate of one check."""
WINDOW = 20
"""Runs the trend gate looks at."""
PERMUTATIONS = 2_000
"""Shufflings of the window the trend gate's p-value is counted over."""
MIN_BEFORE = 3
"""Runs the trend gate wants before a cut."""
MIN_AFTER = 2
"""Runs the trend gate wants after a cut: a single bad run never trips it."""

__all__ = ["ALPHA", "LAST_RUNS", "MIN_AFTER", "MIN_BEFORE", "PERMUTATIONS", "WINDOW"]
