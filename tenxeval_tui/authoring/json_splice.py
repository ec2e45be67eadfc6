"""Save an eval set by rewriting only the cases that changed, in the file's own text.

A hand-formatted file (short arrays on one line, aligned values, comments of style in
the layout) would otherwise come back from a save as ``json.dumps`` writes it, every
line different in the diff. Here the text last loaded or saved is walked once with
the JSON decoder, which tells where each case's text starts and ends; a case the
user did not touch keeps its text byte for byte, a changed one is written in the
file's format at its indentation. Top-level fields (name, id, metadata...) are
rewritten in place the same way (:func:`splice_top_level`). When more changed (cases
added, removed or moved, a top-level field removed) the caller writes the whole file.
"""

from __future__ import annotations

import json
from typing import Any

from tenxeval_tui.authoring.edit_steps import JsonFormat
from tenxeval_tui.evaluation.files.fileio import gc_paused

_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()


class _Mismatch(Exception):
    """The text on disk does not have the shape the document would write."""


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WHITESPACE:
        pos += 1
    return pos


def _expect(text: str, pos: int, char: str) -> int:
    pos = _skip(text, pos)
    if not text.startswith(char, pos):
        raise _Mismatch
    return pos + 1


def _case_spans(text: str, pos: int) -> tuple[list[tuple[Any, int, int]], int]:
    """The items of the array starting at ``pos``: ``(value, start, end)``; and its end."""
    pos = _expect(text, pos, "[")
    cases: list[tuple[Any, int, int]] = []
    if text.startswith("]", _skip(text, pos)):
        return cases, _skip(text, pos) + 1
    while True:
        start = _skip(text, pos)
        value, end = _DECODER.raw_decode(text, start)
        cases.append((value, start, end))
        pos = _skip(text, end)
        if text.startswith("]", pos):
            return cases, pos + 1
        pos = _expect(text, pos, ",")


def _disk_cases(text: str) -> list[tuple[int, int]]:
    """Where each case of the top-level ``eval_cases`` array starts and ends in ``text``."""
    spans: list[tuple[int, int]] | None = None
    pos = _expect(text, 0, "{")
    if text.startswith("}", _skip(text, pos)):
        raise _Mismatch  # an empty object has no cases to keep
    while True:
        key, pos = _DECODER.raw_decode(text, _skip(text, pos))
        pos = _expect(text, pos, ":")
        if key == "eval_cases" and spans is None:
            found, pos = _case_spans(text, pos)
            spans = [(start, end) for _, start, end in found]
        else:
            _, pos = _DECODER.raw_decode(text, _skip(text, pos))
        pos = _skip(text, pos)
        if text.startswith("}", pos):
            if spans is None:
                raise _Mismatch
            return spans
        pos = _expect(text, pos, ",")


def _indentation_at(text: str, start: int) -> str | None:
    """The blanks before ``start`` on its line, or ``None`` when other text precedes it."""
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    return prefix if prefix.strip(_WHITESPACE) == "" else None


def _case_text(case: Any, fmt: JsonFormat, indentation: str) -> str:
    separators = (",", ":") if fmt.compact else None
    dumped = json.dumps(
        case, indent=fmt.indent, ensure_ascii=fmt.ensure_ascii, separators=separators
    )
    if fmt.indent is None:
        return dumped
    # JSON escapes line breaks inside strings: every "\n" left is layout.
    return dumped.replace("\n", fmt.newline + indentation.replace("\r", ""))


def splice_changed_cases(
    base_text: str, cases: list[dict[str, Any]], unchanged: list[bool], fmt: JsonFormat
) -> str | None:
    """``base_text`` with the cases not ``unchanged`` rewritten; ``None`` if it cannot be.

    ``base_text`` is the file as the document last loaded or saved it, holding the same
    cases in the same order with the same top-level fields (the caller checks that); a
    case flagged ``unchanged`` keeps its text there. ``None`` when the text's cases cannot
    be found, or a changed case shares its line with other text in an indented file.
    """
    try:
        with gc_paused():  # the decoded cases are thrown away at once: nothing to collect
            spans = _disk_cases(base_text)
    except (_Mismatch, ValueError, RecursionError):
        return None
    if len(spans) != len(cases):
        return None
    pieces: list[str] = []
    kept_to = 0
    for (start, end), case, same in zip(spans, cases, unchanged, strict=True):
        if same:
            continue
        indentation = _indentation_at(base_text, start)
        if indentation is None:
            if fmt.indent is not None:
                return None  # no indentation to write it at
            indentation = ""
        pieces += [base_text[kept_to:start], _case_text(case, fmt, indentation)]
        kept_to = end
    pieces.append(base_text[kept_to:])
    return "".join(pieces)


def _members(text: str) -> dict[str, tuple[int, int, int]]:
    """Each top-level member: ``key -> (key start, value start, value end)``. A key
    given twice is a mismatch (which one would count?)."""
    members: dict[str, tuple[int, int, int]] = {}
    pos = _expect(text, 0, "{")
    if text.startswith("}", _skip(text, pos)):
        return members
    while True:
        key_start = _skip(text, pos)
        key, pos = _DECODER.raw_decode(text, key_start)
        pos = _expect(text, pos, ":")
        start = _skip(text, pos)
        _, end = _DECODER.raw_decode(text, start)
        if not isinstance(key, str) or key in members:
            raise _Mismatch
        members[key] = (key_start, start, end)
        pos = _skip(text, end)
        if text.startswith("}", pos):
            return members
        pos = _expect(text, pos, ",")


def splice_top_level(text: str, changes: dict[str, Any], fmt: JsonFormat) -> str | None:
    """``text`` with the top-level members in ``changes`` set to their new values.

    A member the text has is rewritten in place (the rest keeps its bytes); a new one is
    added after the last member, at its indentation. ``None`` when that cannot be done:
    the text is not one JSON object, repeats a key, or a member shares its line with
    other text in an indented file. Removing members is not done here (``None``).
    """
    try:
        with gc_paused():
            members = _members(text)
    except (_Mismatch, ValueError, RecursionError):
        return None
    edits: list[tuple[int, int, str]] = []
    added: list[str] = []
    for key, value in changes.items():
        if key in members:
            key_start, start, end = members[key]
            indentation = _indentation_at(text, key_start)
            if indentation is None and fmt.indent is not None:
                return None
            edits.append((start, end, _case_text(value, fmt, indentation or "")))
            continue
        if not members:
            return None  # nothing to take the layout from
        last_key, _, _ = max(members.values(), key=lambda span: span[2])
        indentation = _indentation_at(text, last_key)
        if indentation is None and fmt.indent is not None:
            return None
        colon = ":" if fmt.compact else ": "
        name = json.dumps(key, ensure_ascii=fmt.ensure_ascii)
        member = f"{name}{colon}{_case_text(value, fmt, indentation or '')}"
        if fmt.indent is None:
            added.append(("," if fmt.compact else ", ") + member)
        else:
            added.append(f",{fmt.newline}{indentation}{member}")
    if added:
        last_end = max(end for _, _, end in members.values())
        edits.append((last_end, last_end, "".join(added)))
    pieces: list[str] = []
    kept_to = 0
    for start, end, new in sorted(edits):
        pieces += [text[kept_to:start], new]
        kept_to = end
    pieces.append(text[kept_to:])
    return "".join(pieces)
