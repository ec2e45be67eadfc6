"""Find where JSON paths sit in a JSON text (line and column, 1-based), all in one pass.

The standard library parser keeps no positions, and we only need them when something
is wrong, so this scanner runs on the error path only. :func:`locate_many` answers any
number of paths in a single walk of the text: it descends only into the objects and
arrays that lie on some path and skips every other value with the C scanner of the
``json`` module, so a file with a thousand problems costs one scan, not a thousand.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

PathPart = str | int

_WS = re.compile(r"[ \t\r\n]*")
# For values the C scanner cannot skip (nested deeper than its recursion limit).
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
# Numbers are never converted (an integer of 5,000 digits is skipped like any other).
_SCAN: Callable[[str, int], tuple[Any, int]] = vars(
    json.JSONDecoder(parse_int=len, parse_float=len, parse_constant=len)
)["scan_once"]  # the C scanner the decoder made (an instance attribute typeshed omits)


@dataclass
class _Node:
    """A trie of the paths asked for: each node a path prefix, with the queries below it."""

    children: dict[PathPart, _Node] = field(default_factory=dict)
    below: list[int] = field(default_factory=list)


def _skip_ws(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


def _skip_value(text: str, pos: int) -> int:
    """The position just after the JSON value starting at ``pos``."""
    try:
        return int(_SCAN(text, pos)[1])
    except RecursionError:
        pass
    depth = 0
    for match in _STRUCTURE.finditer(text, pos):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return match.end()
    raise ValueError("unterminated value")


def _walk(text: str, pos: int, node: _Node, anchors: list[int]) -> int:
    """Record ``pos`` for every query under ``node``, descend where a path goes; returns the
    end of the value at ``pos``."""
    for query in node.below:
        anchors[query] = pos
    opener = text[pos : pos + 1]
    wants_key = any(isinstance(part, str) for part in node.children)
    wants_index = any(isinstance(part, int) for part in node.children)
    if not ((opener == "{" and wants_key) or (opener == "[" and wants_index)):
        return _skip_value(text, pos)
    closer = "}" if opener == "{" else "]"
    seen: set[PathPart] = set()
    pos = _skip_ws(text, pos + 1)
    index = 0
    while text[pos : pos + 1] != closer:
        part: PathPart = index
        if opener == "{":
            key, pos = _SCAN(text, pos)
            pos = _skip_ws(text, pos)
            if text[pos : pos + 1] != ":":
                raise ValueError("expected ':'")
            pos = _skip_ws(text, pos + 1)
            part = key
        child = node.children.get(part) if part not in seen else None
        seen.add(part)  # a key given twice: the first one is where the path points
        pos = _walk(text, pos, child, anchors) if child else _skip_value(text, pos)
        pos = _skip_ws(text, pos)
        if text[pos : pos + 1] == ",":
            pos = _skip_ws(text, pos + 1)
        elif text[pos : pos + 1] != closer:
            raise ValueError(f"expected ',' or {closer!r}")
        index += 1
    return pos + 1


def _line_cols(text: str, offsets: Sequence[int]) -> dict[int, tuple[int, int]]:
    """Line and column of every offset, counting the lines once in ascending order."""
    found: dict[int, tuple[int, int]] = {}
    line, line_start, counted = 1, 0, 0
    for offset in sorted(set(offsets)):
        newlines = text.count("\n", counted, offset)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted, offset) + 1
        counted = offset
        found[offset] = (line, offset - line_start + 1)
    return found


def locate_many(text: str, paths: Sequence[Sequence[PathPart]]) -> list[tuple[int, int]]:
    """Line and column of the value at each of ``paths`` (or of the deepest part of it that
    exists), in one scan of ``text``.

    A missing key therefore points at the object that lacks it, which is where the user
    has to add it. Text that is no valid JSON gives the places found before the fault.
    """
    root = _Node()
    for query, path in enumerate(paths):
        node = root
        node.below.append(query)
        for part in path:
            node = node.children.setdefault(part, _Node())
            node.below.append(query)
    start = _skip_ws(text, 0)
    anchors = [start] * len(paths)
    with contextlib.suppress(ValueError, IndexError, StopIteration, RecursionError):
        _walk(text, start, root, anchors)
    places = _line_cols(text, anchors)
    return [places[anchor] for anchor in anchors]


def locate(text: str, path: Sequence[PathPart]) -> tuple[int, int]:
    """Line and column of the value at ``path``: :func:`locate_many` for one path."""
    return locate_many(text, [path])[0]


def format_path(path: Sequence[PathPart]) -> str:
    """Render a path as ``eval_cases[3].conversation[0].user_content``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"
