"""The line over a sortable table of cases: what it is sorted by and what it hides.

The comparison and the flakiness view both sort their cases by a key the user cycles
(``s``), reverse it (``v``) and hide the uninteresting cases until ``a`` shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text


def sort_caption(
    sort_key: str, orders: Mapping[str, tuple[str, str]], *, reverse: bool, hidden: str | None
) -> Text:
    """``Sorted by KEY (most unstable first)``: what comes first, in words (``orders``:
    each key's words as sorted and reversed, since what "ascending" lists first depends on
    the key), then ``(HIDDEN hidden: a shows them)`` when ``hidden`` names the cases the
    table leaves out now."""
    first, reversed_first = orders[sort_key]
    direction = reversed_first if reverse else first
    note = f"   ({hidden} hidden: a shows them)" if hidden else ""
    return Text.assemble(("Sorted by ", "bold"), (f"{sort_key} ({direction})", "cyan"), note)


def next_sort_key(order: Sequence[str], current: str) -> str:
    """The key after ``current`` in ``order``, round to the first."""
    return order[(order.index(current) + 1) % len(order)]


__all__ = ["next_sort_key", "sort_caption"]
