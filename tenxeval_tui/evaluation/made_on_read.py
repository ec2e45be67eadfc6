"""A sequence whose items are made from a list's items as they are read."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload


class MadeOnRead[S, T](Sequence[T]):
    """``make(item)`` for each item of ``source``, made when it is read (a slice is a
    list of them; iterating makes one at a time): what is held is the list of small
    sources, not the objects made from them. Each read makes a new object."""

    __slots__ = ("make", "source")

    def __init__(self, source: list[S], make: Callable[[S], T]) -> None:
        self.source = source
        self.make = make

    def __len__(self) -> int:
        return len(self.source)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self.make(item) for item in self.source[index]]
        return self.make(self.source[index])

    def __iter__(self) -> Iterator[T]:
        return (self.make(item) for item in self.source)


__all__ = ["MadeOnRead"]
