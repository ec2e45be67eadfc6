"""A value shown inertly in an editable box, and the value an edit of the box stands for.

An ``Input`` or ``TextArea`` writes its text to the terminal as it is, so a box never
holds a value with control characters: it holds :func:`~tenxeval_tui.evaluation.inert.inert`
of it (ESC shown as ``␛``, U+009B as ``⟦U+009B⟧``...). Showing must not change the value:

- a box that is not edited saves its value byte for byte, control characters included;
- in an edited box, what the user typed is saved as typed, and every character the
  user did not touch keeps what it was: a ``␛`` that stands for an ESC of the value
  still saves an ESC, while a ``␛`` the user types (or pastes) saves a ``␛``;
- deleting a shown control deletes it; an edit inside an escape shown for one
  (``⟦U+009B⟧``) replaces that control by the text the box then shows there.

Each edit is found by comparing the box's text with its text before (the part that
differs, between what is the same at the start and at the end), which is exact for
typing, deleting and pasting at one place at a time.
"""

from __future__ import annotations

from tenxeval_tui.evaluation.inert import inert, inert_pieces, is_inert


class ShownValue:
    """The pieces of a value as a box shows them; :meth:`edited` follows the box's edits."""

    def __init__(self, value: str, *, multiline: bool = False) -> None:
        self.multiline = multiline
        self._pieces: list[tuple[str, str]] = inert_pieces(value, multiline=multiline)
        self.shown = "".join(shown for _, shown in self._pieces)
        """What the box shows (and should hold)."""

    @property
    def value(self) -> str:
        """The value the box stands for now."""
        return "".join(original for original, _ in self._pieces)

    def edited(self, shown: str) -> str:
        """Follow the box's text changing to ``shown``; returns the value it stands for.

        When ``shown`` itself holds an unsafe character (a paste), that character is
        kept in the value and :attr:`shown` becomes the inert text the box should
        show instead (``shown != self.shown`` tells the caller to put it back).
        """
        old = self.shown
        if shown == old:
            return self.value
        limit = min(len(old), len(shown))
        head = 0
        while head < limit and old[head] == shown[head]:
            head += 1
        tail = 0
        while tail < limit - head and old[-1 - tail] == shown[-1 - tail]:
            tail += 1
        # Pieces wholly before and after the changed span keep what they stand for; a
        # piece the span cuts into is replaced by what the box now shows of it.
        before: list[tuple[str, str]] = []
        after: list[tuple[str, str]] = []
        position = 0
        cut_start = cut_end = None
        for original, piece_shown in self._pieces:
            end = position + len(piece_shown)
            if end <= head:
                before.append((original, piece_shown))
            elif position >= len(old) - tail:
                after.append((original, piece_shown))
            else:
                cut_start = position if cut_start is None else cut_start
                cut_end = end
            position = end
        start = head if cut_start is None else min(head, cut_start)
        stop_old = len(old) - tail if cut_end is None else max(len(old) - tail, cut_end)
        typed = shown[start : len(shown) - (len(old) - stop_old)]
        middle = inert_pieces(typed, multiline=self.multiline) if typed else []
        self._pieces = before + middle + after
        self.shown = "".join(piece_shown for _, piece_shown in self._pieces)
        return self.value


def shows_controls(value: str, *, multiline: bool = False) -> bool:
    """Whether a box showing ``value`` shows some of its characters as glyphs."""
    return not is_inert(value, multiline=multiline)


__all__ = ["ShownValue", "inert", "shows_controls"]
