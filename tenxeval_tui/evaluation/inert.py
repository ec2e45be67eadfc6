"""Untrusted text made inert for display: what would drive a terminal is shown, not sent.

Eval sets, agents, judges and reports are untrusted: their strings can hold escape
sequences (``ESC [2J`` blanks the screen, ``ESC ]0;...BEL`` renames the window,
``ESC ]52;...`` writes the clipboard), C1 controls that some terminals read as the
same (U+009B is CSI), and bidi overrides that make text read other than it is.
Every front end passes such a string through :func:`inert` before it is shown:

- C0 controls (U+0000-U+001F) become their Unicode Control Picture (ESC -> ``␛``,
  BEL -> ``␇``, CR -> ``␍``), and DEL becomes ``␡``; newline and tab are kept when
  the place shows several lines (``multiline=True``), shown as ``␊`` and ``␉`` when not;
- C1 controls (U+0080-U+009F), bidi embeddings, overrides, isolates and marks (U+202A-U+202E,
  U+2066-U+2069, U+200E, U+200F, U+061C) and invisible characters that hide or split
  text (U+200B, U+2028, U+2029, U+2060-U+2064, U+FEFF) become a marked code point,
  ``⟦U+202E⟧``: the brackets set it apart from the same letters typed (``\\u202e``);
- lone surrogates (which UTF-8 cannot write) become U+FFFD, as in the report files.

Everything else is left as it is (Rich markup too: callers show the result as plain
text, never as markup). One character class, :data:`UNSAFE`, defines what is replaced;
the editor uses :func:`inert_pieces` to map what a box shows back to the value.
"""

from __future__ import annotations

import re

_OTHERS = (
    "\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff"
)
UNSAFE = re.compile(f"[\x00-\x1f{_OTHERS}]")
"""Every character :func:`inert` replaces (newline and tab included)."""
_UNSAFE_MULTILINE = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")
_JSON_WHITESPACE = frozenset("\n\r\t")


def shown_char(char: str) -> str:
    """How one unsafe character is shown (Control Picture, ``⟦U+XXXX⟧``, U+FFFD)."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"⟦U+{code:04X}⟧"


def _pattern(multiline: bool) -> re.Pattern[str]:
    return _UNSAFE_MULTILINE if multiline else UNSAFE


def inert(text: str, *, multiline: bool = False) -> str:
    """``text`` with every character that could drive a terminal shown visibly instead.

    ``multiline`` keeps newlines and tabs (for a place that shows several lines).
    Text with nothing to replace is returned as it is (the same object).
    """
    pattern = _pattern(multiline)
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: shown_char(m.group()), text)


def is_inert(text: str, *, multiline: bool = False) -> bool:
    """Whether :func:`inert` would leave ``text`` as it is."""
    return _pattern(multiline).search(text) is None


def inert_pieces(text: str, *, multiline: bool = False) -> list[tuple[str, str]]:
    """``text`` cut into ``(original, shown)`` pieces whose ``shown`` parts make :func:`inert`.

    Each unsafe character is a piece of its own; the safe runs between them are pieces
    whose two parts are the same. Joining the originals gives ``text`` back.
    """
    pieces: list[tuple[str, str]] = []
    start = 0
    for match in _pattern(multiline).finditer(text):
        if match.start() > start:
            run = text[start : match.start()]
            pieces.append((run, run))
        pieces.append((match.group(), shown_char(match.group())))
        start = match.end()
    if start < len(text):
        pieces.append((text[start:], text[start:]))
    return pieces


def quoted(text: str) -> str:
    """``text`` in quotes for a message, made inert (where ``repr`` would show ``\\x1b``)."""
    return f"'{inert(text)}'"


def inert_json(text: str) -> str:
    """JSON text with each unsafe character written as its ``\\uXXXX`` escape.

    The JSON means the same (such characters can only be inside strings, where the
    escape stands for them), but no raw C1 control or bidi override reaches a terminal.
    Serialisers already escape C0 controls.
    """
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(
        lambda m: m.group() if m.group() in _JSON_WHITESPACE else f"\\u{ord(m.group()):04x}", text
    )


__all__ = ["UNSAFE", "inert", "inert_json", "inert_pieces", "is_inert", "quoted", "shown_char"]
