"""Whether two runs scored their cases the same way: their configs but for how they ran
(no UI import). ``merge`` refuses shard reports, and ``--resume`` a journal, run with
another scoring config: one report never mixes two scorings.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

EXECUTION_FIELDS = frozenset({"reporter", "max_concurrency", "parallel", "verbose"})
"""Config fields that may differ between the parts of one run (how, not what, it runs)."""


def config_difference(
    first: Mapping[str, Any], other: Mapping[str, Any], also_ignore: Collection[str] = ()
) -> str | None:
    """``they differ in criteria, repeats``: the config fields (JSON, as ``config_used``)
    that differ, :data:`EXECUTION_FIELDS` and ``also_ignore`` aside; ``None`` when none."""
    ignored = EXECUTION_FIELDS | set(also_ignore)
    keys = sorted(k for k in {*first, *other} if k not in ignored and first.get(k) != other.get(k))
    if not keys:
        return None
    shown = ", ".join(keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")
    return f"they differ in {shown}"


__all__ = ["EXECUTION_FIELDS", "config_difference"]
