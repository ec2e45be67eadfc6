"""A table whose rows can be selected, several at once, for an action on all of them.

``space`` selects (or unselects) the row under the cursor and moves down, ``*`` selects
every failed row shown, ``escape`` clears the selection (only while there is one: else
the key goes on to the screen). Selected rows show a ``✓`` in a gutter before the first
column; the gutter is drawn only while something is selected, so a table nobody selects
in looks as it always did. The selection is kept by each item's key
(:meth:`MarkableTable.mark_key`), so it outlives a filter that hides a row; each change
posts :class:`MarkableTable.MarksChanged` with the count, for the screen to show it
(a table with a border shows it in its border's subtitle).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from tenxeval_tui.widgets.common.virtual_table import VirtualTable

MARK = "✓"
"""What a selected row shows before its first column (as the editor's case list)."""

MARK_KEYS: list[BindingType] = [
    Binding(
        "space",
        "toggle_mark",
        "Select",
        show=False,
        tooltip="Select (or unselect) the case under the cursor, then move down",
    ),
    Binding("asterisk", "mark_failed", "Select failed", show=False, tooltip="Every failed case"),
    Binding("escape", "clear_marks", "Clear selection", show=False),
]
"""The selection keys of a table (in the help and, while they apply, the palette)."""


class MarkableTable(VirtualTable):
    """A :class:`VirtualTable` with a selection of rows (see the module's docstring).

    Subclasses say what identifies an item (:meth:`mark_key`, the item by default) and
    which items are failed (:meth:`is_failed`, for ``*``), and add :data:`MARK_KEYS` to
    their ``BINDINGS``.
    """

    GUTTER: ClassVar[int] = 2

    class MarksChanged(Message):
        """The selection changed; ``count`` rows are selected now (hidden ones too)."""

        def __init__(self, table: MarkableTable, count: int) -> None:
            super().__init__()
            self.table = table
            self.count = count

        @property
        def control(self) -> MarkableTable:
            """The table whose selection changed."""
            return self.table

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._marks: dict[Hashable, None] = {}
        """The selected items' keys, in the order they were selected."""

    # --- what subclasses say -----------------------------------------------------------

    def mark_key(self, item: Any) -> Hashable:
        """What identifies ``item`` in the selection (the item itself by default)."""
        key: Hashable = item
        return key

    def is_failed(self, item: Any) -> bool:
        """Whether ``item`` is a failed case (``*`` selects those); none by default."""
        return False

    # --- the selection -----------------------------------------------------------------

    @property
    def marked_keys(self) -> list[Hashable]:
        """The keys of the selected items, in the order they were selected."""
        return list(self._marks)

    @property
    def mark_count(self) -> int:
        """How many items are selected."""
        return len(self._marks)

    def is_marked(self, item: Any) -> bool:
        """Whether ``item`` is selected."""
        return self.mark_key(item) in self._marks

    def set_marks(self, keys: list[Hashable]) -> None:
        """Select exactly the items of ``keys``."""
        new = dict.fromkeys(keys)
        if list(new) != list(self._marks):
            had = bool(self._marks)
            self._marks = new
            self._marks_changed(had)

    def clear_marks(self) -> None:
        """Unselect every item."""
        self.set_marks([])

    def _marks_changed(self, had: bool) -> None:
        if had != bool(self._marks):
            self.lead_changed()
        self.refresh_rows()
        self.refresh_bindings()
        count = len(self._marks)
        self.border_subtitle = f"{count} selected · esc clears" if count else ""
        self.post_message(self.MarksChanged(self, count))

    def lead_changed(self) -> None:
        """The gutter came or went: the columns have that much less (or more) room."""
        self.update_virtual_size()

    # --- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_marks":
            return bool(self._marks)  # else escape goes on to the screen (back)
        return True

    def action_toggle_mark(self) -> None:
        """Select (or unselect) the item under the cursor, then move down."""
        item = self.current
        if item is None:
            return
        key = self.mark_key(item)
        keys = [k for k in self._marks if k != key]
        self.set_marks(keys if key in self._marks else [*keys, key])
        self.cursor += 1

    def action_mark_failed(self) -> None:
        """Select every failed item shown (those already selected stay)."""
        failed = [self.mark_key(item) for item in self.items if self.is_failed(item)]
        self.set_marks([*self._marks, *failed])

    def action_clear_marks(self) -> None:
        """Unselect every item."""
        self.clear_marks()

    # --- drawing -----------------------------------------------------------------------

    @property
    def lead_width(self) -> int:
        return self.GUTTER if self._marks else 0

    def lead_cell(self, index: int | None) -> Text:
        if index is None:
            return Text(MARK.ljust(self.GUTTER), style="bold")
        if self.is_marked(self.items[index]):
            return Text(MARK.ljust(self.GUTTER), style="bold green")
        return Text(" " * self.GUTTER)


__all__ = ["MARK", "MARK_KEYS", "MarkableTable"]
