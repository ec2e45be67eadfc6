"""An eval set file read a case at a time, at the ``json`` module's speed.

The worker of a run reads its eval sets twice without holding them (see
:mod:`~tenxeval_tui.runs.case_stream`): once to check every case and hash the file, once
to build the selected cases as they are about to run. :func:`eval_set_items` gives the
file's top-level fields and each of its cases as decoded JSON, in file order, decoding one
value at a time from a window of the file (``json.JSONDecoder.raw_decode``: C speed,
where ``ijson``'s items took five times as long). Only the top-level object and its
``eval_cases`` array are walked here; every value in them is the ``json`` module's.

Anything that is not an object with at most one ``eval_cases`` array (not JSON, ``NaN``
or ``Infinity``, an integer of more digits than Python converts, a byte order mark, a value cut short, text after the object) raises :class:`NotStreamable`: the
caller loads the file whole, which names the problem exactly.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Final

CASE: Final = object()
"""The key :func:`eval_set_items` gives each case under (one item of ``eval_cases``)."""

_CHUNK = 1 << 20
_SPACE = re.compile(r"[ \t\n\r]*")
_NEXT_CASE = re.compile(r"[ \t\n\r]*,[ \t\n\r]*(?=[^ \t\n\r])")
"""A comma and the white space around it, up to the next value's first character."""


def _no_constant(name: str) -> Any:
    raise NotStreamable(f"{name} is not JSON")  # Python's json reads it; loading does not


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
"""What ``_DECODER.raw_decode`` calls: a value from a place, no white space before it."""


class NotStreamable(ValueError):
    """The file is not what :func:`eval_set_items` reads (see the module)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where an item of :func:`placed_eval_set_items` is in its file: characters
    ``start`` to ``end`` of ``text`` (the reader's window when it was read), the window
    starting ``lines_before`` lines into the file, ``columns_before`` characters into its
    line."""

    text: str
    start: int
    end: int
    lines_before: int
    columns_before: int

    def raw(self) -> str:
        """The item's text as the file has it."""
        return self.text[self.start : self.end]

    def line_column(self) -> tuple[int, int]:
        """The 1-based line and column of the item's first character in the file."""
        newlines = self.text.count("\n", 0, self.start)
        if not newlines:
            return self.lines_before + 1, self.columns_before + self.start + 1
        return self.lines_before + newlines + 1, self.start - self.text.rfind("\n", 0, self.start)


class _Window:
    """The file's text from the read position on, read in chunks as it is needed."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self.text = ""
        self.pos = 0
        self.ended = False
        self.lines_before = 0
        """Newlines in the text read before :attr:`text` (for :class:`Place`)."""
        self.columns_before = 0
        """Characters after the last of them."""
        self.mark: int | None = None
        """Where the item being read starts (kept in :attr:`text` while it is read)."""

    def more(self) -> bool:
        """Read on (at least as much again as is held: a value longer than a chunk is read
        in a few steps, not one chunk a step); ``False`` at the end of the file."""
        if self.ended:
            return False
        chunk = self._handle.read(max(_CHUNK, len(self.text) - self.pos))
        self.ended = not chunk
        try:
            decoded = self._utf8.decode(chunk, final=self.ended)
        except UnicodeDecodeError:
            raise NotStreamable from None
        dropped = self.pos if self.mark is None else min(self.pos, self.mark)
        newlines = self.text.count("\n", 0, dropped)
        if newlines:
            self.lines_before += newlines
            self.columns_before = dropped - self.text.rfind("\n", 0, dropped) - 1
        else:
            self.columns_before += dropped
        self.text = self.text[dropped:] + decoded
        self.pos -= dropped
        if self.mark is not None:
            self.mark -= dropped
        return True

    def start_item(self, placed: bool) -> None:
        """The next value (or key) starts an item whose :meth:`place` is wanted (when
        ``placed``): its text stays in the window until then."""
        self.peek()
        self.mark = self.pos if placed else None

    def place(self) -> Place:
        """Where the item started with :meth:`start_item` is (up to the read position)."""
        assert self.mark is not None
        start, self.mark = self.mark, None
        return Place(self.text, start, self.pos, self.lines_before, self.columns_before)

    def peek(self) -> str:
        """The next character that is not white space (``""`` at the end)."""
        while True:
            match = _SPACE.match(self.text, self.pos)
            assert match is not None  # the pattern matches the empty string
            self.pos = match.end()
            if self.pos < len(self.text) or not self.more():
                return self.text[self.pos : self.pos + 1]

    def take(self, char: str) -> None:
        """Pass over ``char``, the next character that is not white space."""
        if self.peek() != char:
            raise NotStreamable
        self.pos += 1

    def value(self) -> Any:
        """The next JSON value, decoded."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError:
                if self.more():
                    continue  # cut by the window's end, or wrong: read on to know
                raise NotStreamable from None
            except NotStreamable:
                raise
            except ValueError:  # a number of more digits than Python converts
                raise NotStreamable from None
            if end == len(self.text) and self.more():
                continue  # a number or a word may go on past the window
            self.pos = end
            return value


def eval_set_items(handle: BinaryIO) -> Iterator[tuple[Any, Any]]:
    """``(key, value)`` for each top-level field of the eval set file open in ``handle``
    (binary), but for ``eval_cases``: ``(CASE, case)`` for each of its items instead, in
    file order. Raises :class:`NotStreamable` (see the module), maybe after some items."""
    for key, value, _ in _items(_Window(handle), placed=False):
        yield key, value


def placed_eval_set_items(handle: BinaryIO) -> Iterator[tuple[Any, Any, Place]]:
    """:func:`eval_set_items`, each with its :class:`Place` in the file: a top-level
    field's from its key to the end of its value, a case's its value's."""
    for key, value, place in _items(_Window(handle), placed=True):
        assert place is not None
        yield key, value, place


def _items(window: _Window, placed: bool) -> Iterator[tuple[Any, Any, Place | None]]:
    window.take("{")
    seen_cases = False
    if window.peek() == "}":
        window.pos += 1
    else:
        while True:
            window.start_item(placed)
            key = window.value()
            if not isinstance(key, str):
                raise NotStreamable
            window.take(":")
            if key == "eval_cases" and window.peek() == "[":
                if seen_cases:
                    raise NotStreamable  # two lists of cases: the later wins, when loaded
                seen_cases = True
                window.mark = None
                yield from _cases(window, placed)
            else:
                value = window.value()
                yield key, value, window.place() if placed else None
            if window.peek() == "}":
                window.pos += 1
                break
            window.take(",")
    if window.peek() != "":
        raise NotStreamable  # text after the eval set


def _cases(window: _Window, placed: bool) -> Iterator[tuple[Any, Any, Place | None]]:
    window.take("[")
    if window.peek() == "]":
        window.pos += 1
        return
    while True:
        window.start_item(placed)
        case = window.value()
        yield CASE, case, window.place() if placed else None
        # The cases that follow in the window, read without its steps (a case cost twice
        # the json module's decoding in them); anything else is left to them.
        if not placed:
            yield from _cases_in_window(window)
        if window.peek() == "]":
            window.pos += 1
            return
        window.take(",")


def _cases_in_window(window: _Window) -> Iterator[tuple[Any, Any, None]]:
    """The next cases, each after a comma, that lie whole in the window (one ending at
    the window's end might go on past it), decoded as :meth:`_Window.value` does; stops
    before anything else (the list's end, the window's, a value that does not decode),
    the window's position after the last case given."""
    text, pos = window.text, window.pos
    scan = _SCAN
    after = _NEXT_CASE.match
    while (found := after(text, pos)) is not None:
        start = found.end()
        try:
            case, end = scan(text, start)
        except (StopIteration, ValueError):  # ValueError: NotStreamable's too: read again
            return
        if end >= len(text):
            return
        window.pos = pos = end
        yield CASE, case, None


__all__ = ["CASE", "NotStreamable", "Place", "eval_set_items", "placed_eval_set_items"]
