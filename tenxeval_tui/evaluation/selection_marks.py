"""Reports of a run over a selection of an eval set's cases, not the whole set.

A run of some of a set's cases (the run view's "rerun failed" and "run again", its filter
by case ids or ``#tags``, a watch rerun of the changed cases, ``run --case``/``--tags``/
``--limit``/``--sample``) writes ``metadata.selection`` into its report::

    "selection": {"by": "rerun_failed", "cases": 3, "of": 24}

``by`` says how the cases were chosen (:data:`SELECTION_KINDS`), ``cases`` how many the
selection chose and ``of`` how many the eval set holds. A run over every case writes
nothing (a report without the key, older ones included, is of a full run); a filter that
happens to choose every case is a full run too. A stopped run keeps its ``partial``
meaning beside it.

A ``run --shard K/N`` part is a selection too, read from the ``shard`` mark every part
already carries (``{"index": K, "count": N, "total": cases of the whole run, ...}``, see
``runs.shards``), so parts written before this reader are read as selections as well: its
mark is ``by`` ``shard`` (or the run's own ``selection``, a ``--tags`` run split in parts)
with ``part`` ``"K/N"``. The report ``merge`` makes of the parts carries no ``shard`` mark:
it is a run of every case the parts split. A part of one (``--shard 1/1``) holds every case.

What reads it: the history (such a run is listed, marked, but is no point of the eval
set's pass-rate series), ``trend`` (ignores it), ``compare`` (the cases it did not run
are "not run", the pass rates over the cases both sides ran) and the flaky view (its
window counts full runs). No UI import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SELECTION_KEY = "selection"
"""Report metadata key of a run over a selection of its eval set's cases."""

SHARD_KEY = "shard"
"""Report metadata key of a ``run --shard K/N`` part (written by ``runs.shards``)."""

SELECTION_KINDS: dict[str, str] = {
    "rerun_failed": "rerun failed",
    "run_again": "run again",
    "cases": "case ids",
    "tags": "tags",
    "watch": "watch rerun",
    "limit": "--limit",
    "sample": "--sample",
    "shard": "shard",
}
"""How the cases of a selection were chosen (``by``), and its words."""


@dataclass(frozen=True, slots=True)
class SelectionMark:
    """A report's ``metadata.selection``: how its cases were chosen, how many of how many."""

    by: str
    cases: int | None = None
    of: int | None = None
    part: str | None = None
    """``"K/N"`` for a ``--shard`` part (``None``: not a part); ``of`` is then the cases
    of the whole run the parts split, ``cases`` unknown unless the run chose them."""

    def to_json(self) -> dict[str, Any]:
        """The mark as the report's metadata holds it (``part`` only for a shard part)."""
        found: dict[str, Any] = {"by": self.by, "cases": self.cases, "of": self.of}
        if self.part is not None:
            found["part"] = self.part
        return found

    @property
    def text(self) -> str:
        """``rerun failed, 3 of 24 cases``, ``shard 2/4 of 24 cases`` (what is known)."""
        if self.by == "shard":
            part = f"shard {self.part}" if self.part else "shard"
            return f"{part} of {self.of} cases" if self.of is not None else part
        words = SELECTION_KINDS.get(self.by, self.by or "selection")
        if self.cases is not None and self.of is not None:
            words = f"{words}, {self.cases} of {self.of} cases"
        return f"{words}, shard {self.part}" if self.part else words


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def selection_of(metadata: Mapping[str, Any] | Any) -> SelectionMark | None:
    """The selection a report's ``metadata`` marks; ``None`` for a run over every case.

    A mark written by hand or by another tool may lack fields: any value under the key
    other than ``null``/``false`` marks a selection (its counts ``None`` when they are not
    whole numbers), so a damaged mark never turns a selection into a full run. A
    ``--shard`` part is one (see the module), its own ``selection`` kept when it has one.
    """
    if not isinstance(metadata, Mapping):
        return None
    mark = _marked(metadata)
    shard = _shard_part(metadata.get(SHARD_KEY))
    if shard is None:
        return mark
    part, total = shard
    if mark is None:
        return SelectionMark("shard", None, total, part)
    return SelectionMark(mark.by, mark.cases, mark.of, mark.part or part)


def _shard_part(mark: Any) -> tuple[str, int | None] | None:
    """``("K/N", cases of the whole run)`` of a ``shard`` mark; ``None`` when there is
    none, or it is a part of one (``--shard 1/1``: every case). A damaged one is a part."""
    if mark is None or mark is False:
        return None
    if not isinstance(mark, Mapping):
        return ("?", None)
    index, count = _count(mark.get("index")), _count(mark.get("count"))
    if count == 1:
        return None
    part = f"{index}/{count}" if index is not None and count is not None else "?"
    return (part, _count(mark.get("total")))


def _marked(metadata: Mapping[str, Any]) -> SelectionMark | None:
    """The ``selection`` key's mark (see :func:`selection_of`)."""
    mark = metadata.get(SELECTION_KEY)
    if mark is None or mark is False:
        return None
    if not isinstance(mark, Mapping):
        return SelectionMark(by=str(mark) if isinstance(mark, str) else "selection")
    by, part = mark.get("by"), mark.get("part")
    return SelectionMark(
        by=by if isinstance(by, str) else "selection",
        cases=_count(mark.get("cases")),
        of=_count(mark.get("of")),
        part=part if isinstance(part, str) else None,
    )


def combined_selection(parts: Sequence[tuple[Mapping[str, Any], int]]) -> dict[str, Any] | None:
    """The ``metadata.selection`` of a report combining runs of several eval sets, each
    part given as ``(its metadata, its cases)``: ``None`` when no part is a selection;
    else the parts' cases against the cases their sets hold, a part of every case counting
    its cases on both sides (as ``run`` marks its one report of several sets), ``by`` the
    parts' own when they agree (``selection`` when they do not)."""
    marks = [(selection_of(metadata), cases) for metadata, cases in parts]
    chosen = [mark for mark, _ in marks if mark is not None]
    if not chosen:
        return None
    kinds = {mark.by for mark in chosen}
    cases: int | None = 0
    of: int | None = 0
    for mark, count in marks:
        took, held = (count, count) if mark is None else (mark.cases, mark.of)
        cases = None if cases is None or took is None else cases + took
        of = None if of is None or held is None else of + held
    return SelectionMark(kinds.pop() if len(kinds) == 1 else "selection", cases, of).to_json()


__all__ = [
    "SELECTION_KEY",
    "SELECTION_KINDS",
    "SHARD_KEY",
    "SelectionMark",
    "combined_selection",
    "selection_of",
]
