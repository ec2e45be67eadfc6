"""The pieces of an eval set being edited: cases as held, undo steps, the file's format.

Plain data, no UI import; :mod:`tenxeval_tui.authoring.document` builds the document on them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class CaseState:
    """One case as the editor holds it: its JSON object and the drafts that do not parse."""

    uid: int
    """Stable identity of the case in this document (survives edits and moves)."""
    data: dict[str, Any]
    drafts: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Field key -> (typed text, why it does not parse)."""

    @property
    def eval_id(self) -> str:
        """The case's ``eval_id`` (as text)."""
        return str(self.data.get("eval_id", ""))


@dataclass(frozen=True, slots=True)
class JsonFormat:
    """How the file was written, so that a save writes it the same way."""

    indent: str | None = "  "
    compact: bool = False
    ensure_ascii: bool = False
    trailing_newline: bool = True
    newline: str = "\n"
    """``"\r\n"`` for a file written on Windows: a save keeps its line endings."""

    @classmethod
    def detect(cls, text: str) -> JsonFormat:
        """Guess the indentation and escaping of a JSON text."""
        indent: str | None = None
        # The first indented line tells; look at the start only (files can be large).
        for line in text[:4096].split("\n")[1:]:
            stripped = line.lstrip(" \t")
            if stripped and len(stripped) < len(line):
                indent = line[: len(line) - len(stripped)]
                break
        compact = indent is None and '": ' not in text and '":' in text
        ascii_escaped = text.isascii() and "\\u" in text
        first_break = text.find("\n", 0, 4096)
        newline = "\r\n" if first_break > 0 and text[first_break - 1] == "\r" else "\n"
        return cls(indent, compact, ascii_escaped, text.endswith("\n"), newline)

    def dumps(self, data: Any) -> str:
        """``data`` as JSON text in this format."""
        separators = (",", ":") if self.compact else None
        text = json.dumps(
            data, indent=self.indent, ensure_ascii=self.ensure_ascii, separators=separators
        )
        if self.trailing_newline:
            text += "\n"
        # JSON escapes line breaks inside strings: every "\n" left is layout.
        return text.replace("\n", self.newline) if self.newline != "\n" else text


# --- undo steps ----------------------------------------------------------------------


@dataclass(slots=True)
class ReplaceCase:
    """A case changed (a field, its turns or its tool calls)."""

    before: CaseState
    after: CaseState
    key: str | None = None
    """The field typed into, so that consecutive keystrokes make one undo step."""


@dataclass(slots=True)
class InsertCase:
    """A case was added at ``index``."""

    index: int
    case: CaseState


@dataclass(slots=True)
class InsertCases:
    """Several cases were added at ``index``, in order, as one step (an import)."""

    index: int
    cases: tuple[CaseState, ...]


@dataclass(slots=True)
class DeleteCase:
    """The case at ``index`` was deleted."""

    index: int
    case: CaseState


@dataclass(slots=True)
class MoveCase:
    """A case moved from ``source`` to ``target``."""

    source: int
    target: int
    uid: int


@dataclass(slots=True)
class SetHeader:
    """A top-level field of the eval set (``name``, ``description``) changed."""

    key: str
    before: Any
    after: Any


@dataclass(slots=True)
class ReplaceCases:
    """Several cases changed at once (a bulk edit): one undo step."""

    steps: list[ReplaceCase]


Change = ReplaceCase | InsertCase | InsertCases | DeleteCase | MoveCase | SetHeader | ReplaceCases


def change_uid(change: Change) -> int | None:
    """The case a change is about (``None`` for eval set fields)."""
    match change:
        case ReplaceCase(after=after):
            return after.uid
        case InsertCase(case=case) | DeleteCase(case=case):
            return case.uid
        case InsertCases(cases=cases):
            return cases[0].uid if cases else None
        case MoveCase(uid=uid):
            return uid
        case ReplaceCases(steps=steps) if steps:
            return steps[0].after.uid
    return None
