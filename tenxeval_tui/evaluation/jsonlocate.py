"""Find where a JSON path sits in a JSON text (line and column, 1-based).

The standard library parser keeps no positions, and we only need them when
something is wrong, so this is a small scanner run on the error path only.
"""

from __future__ import annotations

from collections.abc import Sequence

PathPart = str | int

_WHITESPACE = " \t\r\n"


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _WHITESPACE:
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def read_string(self) -> str:
        # Assumes text[pos] == '"'; returns the raw (unescaped enough) key text.
        start = self.pos + 1
        i = start
        chunks: list[str] = []
        while i < len(self.text):
            ch = self.text[i]
            if ch == "\\":
                chunks.append(self.text[start:i])
                nxt = self.text[i + 1 : i + 2]
                if nxt == "u":
                    chunks.append(chr(int(self.text[i + 2 : i + 6], 16)))
                    i += 6
                else:
                    chunks.append(
                        {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt)
                    )
                    i += 2
                start = i
                continue
            if ch == '"':
                chunks.append(self.text[start:i])
                self.pos = i + 1
                return "".join(chunks)
            i += 1
        raise ValueError("unterminated string")

    def skip_value(self) -> None:
        ch = self.peek()
        if ch == '"':
            self.read_string()
        elif ch in "{[":
            depth = 0
            while self.pos < len(self.text):
                c = self.text[self.pos]
                if c == '"':
                    self.read_string()
                    continue
                if c in "{[":
                    depth += 1
                elif c in "}]":
                    depth -= 1
                    if depth == 0:
                        self.pos += 1
                        return
                self.pos += 1
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in ",}] \t\r\n":
                self.pos += 1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def locate(text: str, path: Sequence[PathPart]) -> tuple[int, int]:
    """Line and column of the value at ``path``, or of the deepest part of it that exists.

    A missing key therefore points at the object that lacks it, which is where
    the user has to add it.
    """
    scanner = _Scanner(text)
    try:
        scanner.skip_ws()
        anchor = scanner.pos
        for part in path:
            ch = scanner.peek()
            if isinstance(part, int) and ch == "[":
                scanner.pos += 1
                index = 0
                found = False
                while scanner.peek() not in ("]", ""):
                    if index == part:
                        scanner.skip_ws()
                        anchor = scanner.pos
                        found = True
                        break
                    scanner.skip_value()
                    if scanner.peek() == ",":
                        scanner.pos += 1
                    index += 1
                if not found:
                    break
            elif isinstance(part, str) and ch == "{":
                scanner.pos += 1
                found = False
                while scanner.peek() == '"':
                    key = scanner.read_string()
                    if scanner.peek() == ":":
                        scanner.pos += 1
                    if key == part:
                        scanner.skip_ws()
                        anchor = scanner.pos
                        found = True
                        break
                    scanner.skip_value()
                    if scanner.peek() == ",":
                        scanner.pos += 1
                if not found:
                    break
            else:
                break
    except (ValueError, IndexError):
        pass
    return _line_col(text, anchor)


def format_path(path: Sequence[PathPart]) -> str:
    """Render a path as ``eval_cases[3].conversation[0].user_content``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"
