"""A read-only table that renders only its visible rows (for lists of 10,000+ cases).

Textual's ``DataTable`` builds every row up front (seconds for 10,000 rows);
this widget keeps a list of items and asks a ``cells`` function for the
cells of the rows on screen, line by line (the Line API), so loading and
refiltering cost nothing per row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

CellsFn = Callable[[Any], Sequence[Text]]
# Rendered rows kept: a few screens' worth (a layout change re-renders every visible row).
ROW_CACHE_SIZE = 256


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its title and width (``0``: takes the width that is left)."""

    title: str
    width: int = 0


class _LeafScrollBar(ScrollBar):
    """A scrollbar whose new size asks for no further layout pass.

    Textual's scrollbar treats a change of its size like any widget's, as a reason
    to lay the screen out again; but a scrollbar has no children, and the pass that
    resized it has placed everything already. Each time the table was resized
    (opening a case in the report browser halves it) that cost one more frame,
    about 20 ms later.
    """

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class VirtualTable(ScrollView, can_focus=True):
    """Rows of cells with a cursor; ``Selected`` on enter or on a click of the cursor row."""

    DEFAULT_CSS = """
    VirtualTable {
        height: 1fr;
        background: $surface;
    }
    VirtualTable > .virtual-table--header {
        text-style: bold;
        background: $panel;
    }
    VirtualTable > .virtual-table--cursor {
        background: $block-cursor-blurred-background;
    }
    VirtualTable:focus > .virtual-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "virtual-table--header",
        "virtual-table--cursor",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False),
        Binding("down,j", "cursor_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Open", show=True),
    ]

    cursor: reactive[int] = reactive(0)

    class Selected(Message):
        """The user chose an item (enter, or a click on the cursor row)."""

        def __init__(self, table: VirtualTable, item: Any) -> None:
            super().__init__()
            self.table = table
            self.item = item

        @property
        def control(self) -> VirtualTable:
            return self.table

    class Highlighted(Message):
        """The cursor moved onto an item."""

        def __init__(self, table: VirtualTable, item: Any) -> None:
            super().__init__()
            self.table = table
            self.item = item

        @property
        def control(self) -> VirtualTable:
            return self.table

    def __init__(
        self,
        columns: Sequence[Column],
        cells: CellsFn,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = list(columns)
        self._cells = cells
        self._items: Sequence[Any] = ()
        self._rows: LRUCache[tuple[int, int], list[Segment]] = LRUCache(ROW_CACHE_SIZE)
        self._laid_out_virtual_size = Size(0, 0)

    @property
    def items(self) -> Sequence[Any]:
        """The items shown, in order."""
        return self._items

    @property
    def current(self) -> Any | None:
        """The item under the cursor (``None`` when the table is empty)."""
        return self._items[self.cursor] if self._items else None

    def set_items(self, items: Sequence[Any], keep: Any | None = None) -> None:
        """Show ``items``; the cursor goes to ``keep`` if it is among them, else to the top."""
        self._items = items
        self._rows.clear()
        target = 0
        if keep is not None:
            try:
                target = items.index(keep)
            except ValueError:
                target = 0
        self.virtual_size = Size(self._line_width(), len(items) + 1)
        self.set_reactive(VirtualTable.cursor, target)
        self._scroll_to_cursor()
        self.refresh()
        if items:
            self.post_message(self.Highlighted(self, items[target]))

    def _line_width(self) -> int:
        fixed = sum(c.width for c in self.columns) + len(self.columns) - 1
        width = self.size.width
        if len(self._items) + 1 > self.size.height:  # the vertical scrollbar takes its share
            width -= self.styles.scrollbar_size_vertical
        # Not wider than what shows, or a horizontal scrollbar appears for nothing.
        return max(fixed + 20, width)

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self._line_width(), len(self._items) + 1)

    def _widths(self) -> list[int]:
        fixed = sum(c.width for c in self.columns) + len(self.columns) - 1
        rest = max(self.virtual_size.width - fixed, 8)
        return [c.width or rest for c in self.columns]

    def _line(self, cells: Sequence[Text]) -> Text:
        line = Text(no_wrap=True, overflow="ellipsis")
        for i, (cell, width) in enumerate(zip(cells, self._widths(), strict=False)):
            if i:
                line.append(" ")
            piece = cell.copy()
            piece.truncate(width, overflow="ellipsis", pad=True)
            line.append_text(piece)
        return line

    def render_line(self, y: int) -> Strip:
        if y == 0:
            header = self._line([Text(c.title) for c in self.columns])
            style = self.get_component_rich_style("virtual-table--header")
            return self._fit(list(header.render(self.app.console)), style)
        index = self.scroll_offset.y + y - 1
        if not 0 <= index < len(self._items):
            return Strip.blank(self.size.width, self.rich_style)
        style = self.rich_style
        if index == self.cursor:
            style = self.get_component_rich_style("virtual-table--cursor")
        return self._fit(self._row_segments(index), style)

    def _row_segments(self, index: int) -> list[Segment]:
        # Items are shown as they were when set: set_items drops what was rendered.
        key = (index, self.virtual_size.width)
        segments = self._rows.get(key)
        if segments is None:
            line = self._line(self._cells(self._items[index]))
            segments = list(line.render(self.app.console))
            self._rows[key] = segments
        return segments

    def _fit(self, segments: list[Segment], style: Style) -> Strip:
        """``segments`` scrolled, cut or padded to the width, in ``style``."""
        scroll_x = self.scroll_offset.x
        width = self.size.width
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width).apply_style(style)

    # The header takes the first line: rows fill the rest.
    @property
    def _page(self) -> int:
        return max(self.size.height - 1, 1)

    def _scroll_to_cursor(self) -> None:
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + self._page:
            self.scroll_to(y=self.cursor - self._page + 1, animate=False)

    def watch_cursor(self, old: int, new: int) -> None:
        self._scroll_to_cursor()
        self.refresh()
        if self._items:
            self.post_message(self.Highlighted(self, self._items[new]))

    def _move(self, to: int) -> None:
        if self._items:
            self.cursor = max(0, min(to, len(self._items) - 1))

    def action_cursor_up(self) -> None:
        self._move(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self._move(self.cursor + 1)

    def action_page_up(self) -> None:
        self._move(self.cursor - self._page)

    def action_page_down(self) -> None:
        self._move(self.cursor + self._page)

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(len(self._items) - 1)

    def action_select(self) -> None:
        if self._items:
            self.post_message(self.Selected(self, self._items[self.cursor]))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        index = self.scroll_offset.y + event.y - 1
        if not 0 <= index < len(self._items):
            return
        if index == self.cursor:
            self.action_select()
        else:
            self.cursor = index

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The vertical scrollbar, made as Textual's own property makes it, but a leaf."""
        if self._vertical_scrollbar is None:
            bar = _LeafScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # Textual's ScrollView compares the compositor's virtual size (the visible
        # region) with its own (every row): never equal, so each layout pass updated
        # and refreshed the scrollbars, and that asked for one more frame (a case
        # open took three). Compared with the virtual size of the last pass instead,
        # the scrollbars are updated when the size or the rows changed.
        unchanged = self.virtual_size == self._laid_out_virtual_size
        self._laid_out_virtual_size = self.virtual_size
        resized = self._size != size
        updated = super()._size_updated(
            size, self.virtual_size if unchanged else virtual_size, container_size, layout
        )
        bar = self._vertical_scrollbar
        if resized and bar is not None:
            # The table's new size moved or resized its scrollbar, so the frame of this
            # layout pass paints the bar anew, with the window sizes just set. The
            # repaint they asked for would only paint the same bar again, a frame later.
            bar._repaint_required = False
        return updated
