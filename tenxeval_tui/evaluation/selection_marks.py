"""Reports of a run over a selection of an eval set's cases, not the whole set.

A run of some of a set's cases (the run view's "rerun failed" and "run again", its filter
by case ids or ``#tags``, a watch rerun of the changed cases, ``run --case``/``--tags``/
``--limit``/``--sample``) writes ``metadata.selection`` into its report::

    "selection": {"by": "rerun_failed", "cases": 3, "of": 24}

``by`` says how the cases were chosen (:data:`SELECTION_KINDS`), ``cases`` how many the
selection chose and ``of`` how many the eval set holds. A run over every case writes
nothing (a report without the key, older ones included, is of a full run); a filter that
happens to choose every case is a full run too. A stopped run keeps its ``partial``
meaning beside it, and a ``--shard`` part its own ``shard`` mark.

What reads it: the history (such a run is listed, marked, but is no point of the eval
set's pass-rate series), ``trend`` (ignores it), ``compare`` (the cases it did not run
are "not run", the pass rates over the cases both sides ran) and the flaky view (its
window counts full runs). No UI import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SELECTION_KEY = "selection"
"""Report metadata key of a run over a selection of its eval set's cases."""

SELECTION_KINDS: dict[str, str] = {
    "rerun_failed": "rerun failed",
    "run_again": "run again",
    "cases": "case ids",
    "tags": "tags",
    "watch": "watch rerun",
    "limit": "--limit",
    "sample": "--sample",
}
"""How the cases of a selection were chosen (``by``), and its words."""


@dataclass(frozen=True, slots=True)
class SelectionMark:
    """A report's ``metadata.selection``: how its cases were chosen, how many of how many."""

    by: str
    cases: int | None = None
    of: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The mark as the report's metadata holds it."""
        return {"by": self.by, "cases": self.cases, "of": self.of}

    @property
    def text(self) -> str:
        """``rerun failed, 3 of 24 cases`` (what is known of it)."""
        words = SELECTION_KINDS.get(self.by, self.by or "selection")
        if self.cases is not None and self.of is not None:
            return f"{words}, {self.cases} of {self.of} cases"
        return words


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def selection_of(metadata: Mapping[str, Any] | Any) -> SelectionMark | None:
    """The selection a report's ``metadata`` marks; ``None`` for a run over every case.

    A mark written by hand or by another tool may lack fields: any value under the key
    other than ``null``/``false`` marks a selection (its counts ``None`` when they are not
    whole numbers), so a damaged mark never turns a selection into a full run.
    """
    if not isinstance(metadata, Mapping):
        return None
    mark = metadata.get(SELECTION_KEY)
    if mark is None or mark is False:
        return None
    if not isinstance(mark, Mapping):
        return SelectionMark(by=str(mark) if isinstance(mark, str) else "selection")
    by = mark.get("by")
    return SelectionMark(
        by=by if isinstance(by, str) else "selection",
        cases=_count(mark.get("cases")),
        of=_count(mark.get("of")),
    )


__all__ = ["SELECTION_KEY", "SELECTION_KINDS", "SelectionMark", "selection_of"]
