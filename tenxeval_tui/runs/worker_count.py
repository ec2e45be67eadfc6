"""How many worker processes a run has: ``--workers N``, ``auto`` or the settings' ``workers``.

Apart from :mod:`.pool` (which imports asyncio) so that ``run``'s parent checks the flag
before it hands its plan to its worker child without importing the pool (issue #38).
Only the standard library is imported.
"""

from __future__ import annotations

import os

MAX_WORKERS = 1024
"""The most workers a run may ask for (a run starts no more than it has cases, too)."""


def default_workers() -> int:
    """``--workers auto``: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_workers(value: int | str | None) -> int | None:
    """A ``workers`` setting or flag as a count: ``"auto"`` is :func:`default_workers`,
    ``None`` stays ``None``; ``ValueError`` saying what is wrong otherwise."""
    if value is None:
        return None
    if str(value).strip().lower() == "auto":
        return default_workers()
    try:
        count = int(value)
    except ValueError:
        raise ValueError(f"{value!r} is neither a number nor 'auto'") from None
    if count < 1:
        raise ValueError(f"must be at least 1, not {count}")
    if count > MAX_WORKERS:
        raise ValueError(f"{count} is more than {MAX_WORKERS}, the most workers a run can have")
    return count


__all__ = ["MAX_WORKERS", "default_workers", "resolve_workers"]
