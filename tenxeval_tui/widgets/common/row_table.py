"""A row-cursor ``DataTable`` that moves like every other list of the workbench."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable

CellType = TypeVar("CellType")

ROW_KEYS: list[BindingType] = [
    Binding("up,k", "cursor_up", "Up", show=False),
    Binding("down,j", "cursor_down", "Down", show=False),
    Binding("home", "scroll_top", "First", show=False),
    Binding("end", "scroll_bottom", "Last", show=False),
]
"""``j``/``k`` besides the arrows, ``home``/``end`` to the first/last row (DataTable's own
``home``/``end`` scroll sideways, which a row table has no use for)."""


class RowTable(DataTable[CellType]):
    """A ``DataTable`` with a row cursor, zebra stripes and :data:`ROW_KEYS`."""

    BINDINGS: ClassVar[list[BindingType]] = ROW_KEYS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)


__all__ = ["ROW_KEYS", "RowTable"]
