"""A run's list of case ids held compactly, and where each id is in it (issue #38).

A journal's ``run_start`` line lists every case of the run in report order, and a reader
of the journal places each result it reads by its id. Held as a list of strings and a dict
from id to place, that was about 120 bytes a case, kept by ``tenxeval-tui run``'s parent for
the whole run: most of what it grew by with the cases.

:class:`IdList` holds the ids joined into one string a block of :data:`BLOCK` ids, with
where each ends (about 8 bytes a case beyond the text); :class:`IdPlaces` finds an id's
place in such a list through a table of places (open addressing, 6 to 12 bytes a case)
and answers exactly what ``{eval_id: i for i, eval_id in enumerate(ids)}.get(eval_id,
len(that dict))`` answers: the id's last place when it is listed twice, the number of
distinct ids when it is not listed.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

BLOCK = 1024
"""Ids joined into one string."""


class IdList(Sequence[str]):
    """Ids, in order, joined into one string a block of :data:`BLOCK` ids; each id is cut
    from its block as it is read (equal to the list of the same ids)."""

    __slots__ = ("_blocks", "_ends", "_open")

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._blocks: list[str] = []
        self._open: list[str] = []
        """The ids of the last block, not yet joined."""
        self._ends = array("q")
        """Where each id ends in its block's string."""
        for eval_id in ids:
            self.append(eval_id)

    def append(self, eval_id: str) -> None:
        """One more id."""
        index = len(self._ends)
        self._ends.append((self._ends[-1] if index % BLOCK else 0) + len(eval_id))
        self._open.append(eval_id)
        if len(self._open) == BLOCK:
            self._blocks.append("".join(self._open))
            self._open.clear()

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self._ends)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("id index out of range")
        block, place = divmod(index, BLOCK)
        if block == len(self._blocks):
            return self._open[place]
        return self._blocks[block][self._ends[index - 1] if place else 0 : self._ends[index]]

    def __iter__(self) -> Iterator[str]:
        # Cut from the blocks one after the other (by index, each id's block is found
        # again: several times slower over a big run).
        ends = self._ends
        for number, block in enumerate(self._blocks):
            start = 0
            for end in ends[number * BLOCK : (number + 1) * BLOCK]:
                yield block[start:end]
                start = end
        yield from self._open

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return f"IdList({list(self)!r})"


_EMPTY = -1
_LOAD = 2 / 3
"""The most slots of the table in use."""


class IdPlaces:
    """Where each id of ``ids`` is (see the module): made once, as ``ids`` are then (an id
    appended later is not found)."""

    __slots__ = ("_ids", "_mask", "_table", "distinct")

    def __init__(self, ids: Sequence[str]) -> None:
        self._ids = ids
        size = 8
        while size * _LOAD < len(ids):
            size *= 2
        self._mask = size - 1
        self._table = array("i", [_EMPTY]) * size
        """The place of the id in each slot (the last one listed), or :data:`_EMPTY`."""
        self.distinct = 0
        """How many different ids there are."""
        for index, eval_id in enumerate(ids):
            slot = self._slot(eval_id)
            if self._table[slot] == _EMPTY:
                self.distinct += 1
            self._table[slot] = index

    def _slot(self, eval_id: str) -> int:
        """The slot of ``eval_id``: the one holding it, else the empty one it would take."""
        table, mask, ids = self._table, self._mask, self._ids
        slot = hash(eval_id) & mask
        while (held := table[slot]) != _EMPTY and ids[held] != eval_id:
            slot = (slot + 1) & mask  # the table is never full (see _LOAD)
        return slot

    def place(self, eval_id: str) -> int:
        """The last place of ``eval_id`` in the ids; :attr:`distinct` when not there."""
        held = self._table[self._slot(eval_id)]
        return self.distinct if held == _EMPTY else held


__all__ = ["BLOCK", "IdList", "IdPlaces"]
