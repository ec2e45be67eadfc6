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
from collections.abc import Iterator
from typing import Any, BinaryIO, Final

CASE: Final = object()
"""The key :func:`eval_set_items` gives each case under (one item of ``eval_cases``)."""

_CHUNK = 1 << 20
_SPACE = re.compile(r"[ \t\n\r]*")


def _no_constant(name: str) -> Any:
    raise NotStreamable(f"{name} is not JSON")  # Python's json reads it; loading does not


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


class NotStreamable(ValueError):
    """The file is not what :func:`eval_set_items` reads (see the module)."""


class _Window:
    """The file's text from the read position on, read in chunks as it is needed."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self.text = ""
        self.pos = 0
        self.ended = False

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
        self.text = self.text[self.pos :] + decoded
        self.pos = 0
        return True

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
    window = _Window(handle)
    window.take("{")
    seen_cases = False
    if window.peek() == "}":
        window.pos += 1
    else:
        while True:
            key = window.value()
            if not isinstance(key, str):
                raise NotStreamable
            window.take(":")
            if key == "eval_cases" and window.peek() == "[":
                if seen_cases:
                    raise NotStreamable  # two lists of cases: the later wins, when loaded
                seen_cases = True
                yield from _cases(window)
            else:
                yield key, window.value()
            if window.peek() == "}":
                window.pos += 1
                break
            window.take(",")
    if window.peek() != "":
        raise NotStreamable  # text after the eval set


def _cases(window: _Window) -> Iterator[tuple[Any, Any]]:
    window.take("[")
    if window.peek() == "]":
        window.pos += 1
        return
    while True:
        yield CASE, window.value()
        if window.peek() == "]":
            window.pos += 1
            return
        window.take(",")


__all__ = ["CASE", "NotStreamable", "eval_set_items"]
