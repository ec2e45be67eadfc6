"""The line over a sortable table of cases: what it is sorted by and what it hides.

The comparison and the flakiness view both sort their cases by one of five keys, chosen
by its number (``1``-``5``; the same number again reverses it), and hide the
uninteresting cases until ``f`` shows them. Digits, because ``s`` runs a case again and
``v`` views a run's report wherever they mean anything (one key, one meaning).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.binding import Binding


def sort_caption(
    sort_key: str, orders: Mapping[str, tuple[str, str]], *, reverse: bool, hidden: str | None
) -> Text:
    """``Sorted by KEY (most unstable first)``: what comes first, in words (``orders``:
    each key's words as sorted and reversed, since what "ascending" lists first depends on
    the key), then ``(HIDDEN hidden: f shows them)`` when ``hidden`` names the cases the
    table leaves out now."""
    first, reversed_first = orders[sort_key]
    direction = reversed_first if reverse else first
    note = f"   ({hidden} hidden: {SHOW_ALL_KEY} shows them)" if hidden else ""
    return Text.assemble(("Sorted by ", "bold"), (f"{sort_key} ({direction})", "cyan"), note)


def sort_bindings(order: Sequence[str]) -> list[Binding]:
    """``1`` to ``len(order)``: sort by that key (``sort_by(i)``), the first shown in the
    footer for all of them."""
    last = len(order)
    keys = ", ".join(f"{number} {name}" for number, name in enumerate(order, 1))
    return [
        Binding(
            str(number),
            f"sort_by({number - 1})",
            "Sort" if number == 1 else f"Sort by {name} (again: reverse)",
            key_display=f"1-{last}" if number == 1 else None,
            show=number == 1,
            tooltip=f"Sort by {keys}; the same number again reverses" if number == 1 else "",
        )
        for number, name in enumerate(order, 1)
    ]


def sorted_by(order: Sequence[str], index: int, current: str, reverse: bool) -> tuple[str, bool]:
    """The sort after the key of ``order[index]`` was pressed: that key, or the same key
    reversed when it was the current one."""
    chosen = order[index]
    return (chosen, not reverse) if chosen == current else (chosen, False)


SHOW_ALL_KEY = "f"
"""Shows (and hides again) the cases a sorted table leaves out."""


__all__ = ["SHOW_ALL_KEY", "sort_bindings", "sort_caption", "sorted_by"]
