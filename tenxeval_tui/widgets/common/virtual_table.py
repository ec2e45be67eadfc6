"""The one table of the workbench: rows with a cursor, rendering only the rows on screen.

Textual's ``DataTable`` builds every row up front (seconds for 10,000 rows); this
widget keeps a list of items and renders the lines on screen only (the Line API), so
loading, refiltering and appending cost nothing per row, and a changed row repaints
alone (:meth:`VirtualTable.refresh_row`). The editor's case list, the report browser's
case and comparison tables and the run view's case table are configurations of it:
columns, a row source, styles; the cursor, paging, keys, clicks and scrolling are
here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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

CURSOR_KEYS: list[BindingType] = [
    Binding("up,k", "cursor_up", "Up", show=False),
    Binding("down,j", "cursor_down", "Down", show=False),
    Binding("pageup", "page_up", "Page up", show=False),
    Binding("pagedown", "page_down", "Page down", show=False),
    Binding("home", "first", "First", show=False),
    Binding("end", "last", "Last", show=False),
]
"""The moves of every table: ``j``/``k`` besides the arrows, a page, the first and last row."""


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
    """Rows of cells with a cursor; ``Highlighted`` when the cursor's item changes,
    ``Selected`` on enter (or a click on the cursor row, or a double click).

    Configure it with ``columns`` and a ``cells`` function (item -> its cells), or in a
    subclass by overriding :meth:`row_segments`, :meth:`row_style` and
    :meth:`header_cells`. Rendered rows are cached until :meth:`set_items`,
    :meth:`refresh_row` or a change of width.
    """

    DEFAULT_CSS = """
    VirtualTable {
        height: 1fr;
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
        *CURSOR_KEYS,
        Binding("enter", "select", "Open", show=True),
    ]

    SHOW_HEADER: ClassVar[bool] = True
    """A header line of column titles above the rows (it stays while they scroll)."""
    CELL_PADDING: ClassVar[int] = 0
    """Spaces each side of a cell; with none, one space between cells."""
    CLICK_SELECTS_CURSOR_ROW: ClassVar[bool] = True
    """A click on the cursor row selects it (else only a double click does)."""

    cursor: reactive[int] = reactive(0, always_update=True, repaint=False)
    """The index of the row under the cursor."""

    class ItemMessage(Message):
        """A message about one item of a table: ``table`` sent it, ``item`` is the row's."""

        def __init__(self, table: VirtualTable, item: Any) -> None:
            super().__init__()
            self.table = table
            self.item = item

        @property
        def control(self) -> VirtualTable:
            """The table that sent the message."""
            return self.table

    class Selected(ItemMessage):
        """The user chose an item (enter, or a click on the cursor row)."""

    class Highlighted(ItemMessage):
        """The item under the cursor changed (``None``: the table is empty)."""

    def __init__(
        self,
        columns: Sequence[Column] = (),
        cells: CellsFn | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = list(columns)
        self._cells = cells
        self._items: Sequence[Any] = ()
        self._rendered: LRUCache[int, list[Segment]] = LRUCache(ROW_CACHE_SIZE)
        """Index -> its row's segments, for the width :attr:`_rendered_width`."""
        self._rendered_width = 0
        self._highlighted: Any = None
        self._laid_out_virtual_size = Size(0, 0)
        self._moving = False
        """While a key or a click moves the cursor (see :meth:`user_moved_to`)."""
        self.follow: Callable[[Any], None] | None = None
        """Called with the item a key or a click moved the cursor to, in that step: what
        shows the item under the cursor (the editor's form, a report's case) shows it in
        the frame that shows the cursor there, not a frame or more later."""

    # --- items ---------------------------------------------------------------------

    @property
    def items(self) -> Sequence[Any]:
        """The items shown, in order."""
        return self._items

    @property
    def row_count(self) -> int:
        """How many rows the table shows."""
        return len(self._items)

    @property
    def current(self) -> Any | None:
        """The item under the cursor (``None`` when the table is empty)."""
        return self._items[self.cursor] if 0 <= self.cursor < len(self._items) else None

    def set_items(self, items: Sequence[Any], keep: Any | None = None) -> None:
        """Show ``items``; the cursor goes to ``keep`` if it is among them, else to the top."""
        self.replace_items(items)
        target = 0
        if keep is not None:
            try:
                target = items.index(keep)
            except ValueError:
                target = 0
        self.cursor = target

    def replace_items(self, items: Sequence[Any]) -> None:
        """Show ``items`` in place of the rows, leaving the cursor to the caller."""
        self._items = items
        self._rendered.clear()
        self.update_virtual_size()
        self.refresh()

    def keep_items(self, items: Sequence[Any], changed: Sequence[Any]) -> None:
        """Show ``items``, equal to the items shown (the same rows in the same places),
        of which only ``changed`` look different: only their rows are drawn again."""
        if len(changed) > self._page:  # cheaper drawn whole than looked up one by one
            self.replace_items(items)
            return
        self._items = items
        for item in changed:
            index = self.index_of(item)
            if index is not None:
                self.refresh_row(index)

    def index_of(self, item: Any) -> int | None:
        """The row of ``item`` (``None`` when not shown). Linear: subclasses with keys
        keep an index."""
        try:
            return self._items.index(item)
        except ValueError:
            return None

    def move_to(self, item: Any) -> bool:
        """Put the cursor on ``item``; ``False`` when it is not shown."""
        index = self.index_of(item)
        if index is None:
            return False
        self.cursor = index
        return True

    def update_virtual_size(self) -> None:
        """Size the scrollable area to the rows (after rows were added or removed)."""
        size = Size(self._line_width(), len(self._items) + self._header_rows)
        if size != self.virtual_size:
            self.virtual_size = size

    def refresh_rows(self) -> None:
        """Render every row anew (what the rows show changed, not which rows)."""
        self._rendered.clear()
        self.refresh()

    def refresh_row(self, index: int) -> None:
        """Render row ``index`` anew (its item changed) and repaint it if it is on screen."""
        self._rendered.discard(index)
        top = self.scroll_offset.y
        if top <= index < top + self._page:
            self.refresh_line(index + self._header_rows)

    # --- geometry ------------------------------------------------------------------

    @property
    def _header_rows(self) -> int:
        return 1 if self.SHOW_HEADER else 0

    @property
    def _page(self) -> int:
        """Rows in view (the header takes a line of the height)."""
        return max(self.scrollable_content_region.height - self._header_rows, 1)

    def _fixed_width(self) -> int:
        pad = self.CELL_PADDING
        gaps = 2 * pad * len(self.columns) if pad else max(len(self.columns) - 1, 0)
        return sum(c.width for c in self.columns) + gaps + self.lead_width

    @property
    def lead_width(self) -> int:
        """Cells drawn before the first column (see :meth:`lead_cell`); none by default."""
        return 0

    def lead_cell(self, index: int | None) -> Text:
        """What row ``index`` (``None``: the header) shows before its first column,
        :attr:`lead_width` cells wide."""
        return Text(" " * self.lead_width)

    def _line_width(self) -> int:
        width = self.size.width
        overflows = len(self._items) + self._header_rows > self.size.height
        if overflows or self.styles.overflow_y == "scroll":
            width -= self.styles.scrollbar_size_vertical  # the vertical scrollbar's share
        flexible = any(not c.width for c in self.columns)
        # Not wider than what shows, or a horizontal scrollbar appears for nothing.
        return max(self._fixed_width() + (20 if flexible else 0), width)

    def on_resize(self, event: events.Resize) -> None:
        self.update_virtual_size()

    def _widths(self) -> list[int]:
        rest = max(self.virtual_size.width - self._fixed_width(), 8)
        return [c.width or rest for c in self.columns]

    # --- rendering -----------------------------------------------------------------

    def header_cells(self) -> Sequence[Text]:
        """The header's cells: the column titles."""
        return [Text(c.title) for c in self.columns]

    def row_cells(self, index: int) -> Sequence[Text]:
        """The cells of row ``index`` (the ``cells`` function's, by default)."""
        assert self._cells is not None, "a VirtualTable needs cells or a row_cells override"
        return self._cells(self._items[index])

    def join_cells(self, cells: Sequence[Text]) -> Text:
        """``cells`` laid out in the columns: cut with an ellipsis, padded, spaced."""
        line = Text(no_wrap=True, overflow="ellipsis")
        pad = " " * self.CELL_PADDING
        for i, (cell, width) in enumerate(zip(cells, self._widths(), strict=False)):
            if i and not pad:
                line.append(" ")
            piece = cell.copy()
            piece.truncate(width, overflow="ellipsis", pad=True)
            line.append(pad)
            line.append_text(piece)
            line.append(pad)
        return line

    def row_segments(self, index: int, width: int) -> list[Segment]:
        """Row ``index`` drawn ``width`` cells wide (unstyled by the cursor: see
        :meth:`row_style`)."""
        line = self.join_cells(self.row_cells(index))
        if self.lead_width:
            line = self._led(self.lead_cell(index), line)
        return list(line.render(self.app.console))

    @staticmethod
    def _led(lead: Text, line: Text) -> Text:
        """``line`` after ``lead``, each keeping its own styles."""
        joined = Text(no_wrap=True, overflow="ellipsis")
        joined.append_text(lead)
        joined.append_text(line)
        return joined

    def row_style(self, index: int) -> Style:
        """The style row ``index`` is drawn in (the cursor row's own)."""
        if index == self.cursor:
            return self.get_component_rich_style("virtual-table--cursor")
        return self.rich_style

    def header_style(self) -> Style:
        """The style of the header line."""
        return self.get_component_rich_style("virtual-table--header")

    def render_line(self, y: int) -> Strip:
        if y < self._header_rows:
            header = self.join_cells(self.header_cells())
            if self.lead_width:
                header = self._led(self.lead_cell(None), header)
            return self._fit(list(header.render(self.app.console)), self.header_style())
        index = self.scroll_offset.y + y - self._header_rows
        if not 0 <= index < len(self._items):
            return Strip.blank(self.size.width, self.rich_style)
        return self._fit(self._rendered_row(index), self.row_style(index))

    def _rendered_row(self, index: int) -> list[Segment]:
        width = self.virtual_size.width
        if width != self._rendered_width:
            self._rendered.clear()
            self._rendered_width = width
        segments = self._rendered.get(index)
        if segments is None:
            segments = self.row_segments(index, width)
            self._rendered.set(index, segments)
        return segments

    def _fit(self, segments: list[Segment], style: Style) -> Strip:
        """``segments`` scrolled, cut or padded to the width, in ``style``."""
        scroll_x = self.scroll_offset.x
        width = self.size.width
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width).apply_style(style)

    # --- the cursor ----------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._items) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        top = self.scroll_offset.y
        self._scroll_to_cursor()
        if self.scroll_offset.y != top:
            self.refresh()  # every row moved
        else:  # only the rows the cursor left and reached look different
            for index in {old, new}:
                if top <= index < top + self._page:
                    self.refresh_line(index + self._header_rows)
        item = self.current
        if item != self._highlighted or (item is None and old != new):
            self._highlighted = item
            self.post_message(self.Highlighted(self, item))
            if self._moving:
                self.user_moved_to(item)

    def user_moved_to(self, item: Any | None) -> None:
        """A key or a click moved the cursor to ``item``: called in that step, before
        the frame that shows the cursor there (``Highlighted`` is handled later); calls
        :attr:`follow`."""
        if self.follow is not None:
            self.follow(item)

    def _move(self, cursor: int) -> None:
        """Move the cursor for a key or a click (see :meth:`user_moved_to`)."""
        with self.moved_by_user():
            self.cursor = cursor

    @contextmanager
    def moved_by_user(self) -> Iterator[None]:
        """Within: each move of the cursor is the user's (a key, a click, a filter typed),
        and :meth:`user_moved_to` follows it."""
        moving, self._moving = self._moving, True
        try:
            yield
        finally:
            self._moving = moving

    def _scroll_to_cursor(self) -> None:
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, force=True)
        elif self.cursor >= top + self._page:
            self.scroll_to(y=self.cursor - self._page + 1, animate=False, force=True)

    def action_cursor_up(self) -> None:
        """Move the cursor up a row."""
        self._move(self.cursor - 1)

    def action_cursor_down(self) -> None:
        """Move the cursor down a row."""
        self._move(self.cursor + 1)

    def action_page_up(self) -> None:
        """Move the cursor up a screenful."""
        self._move(self.cursor - self._page)

    def action_page_down(self) -> None:
        """Move the cursor down a screenful."""
        self._move(self.cursor + self._page)

    def action_first(self) -> None:
        """Move the cursor to the first row."""
        self._move(0)

    def action_last(self) -> None:
        """Move the cursor to the last row."""
        self._move(len(self._items) - 1)

    def action_select(self) -> None:
        """Choose the item under the cursor."""
        item = self.current
        if item is not None:
            self.post_message(self.Selected(self, item))

    def on_click(self, event: events.Click) -> None:
        if event.y < self._header_rows:
            return
        index = self.scroll_offset.y + event.y - self._header_rows
        if not 0 <= index < len(self._items):
            return
        again = index == self.cursor and self.CLICK_SELECTS_CURSOR_ROW
        self._move(index)
        if again or event.chain >= 2:
            self.action_select()

    # --- scrollbars ----------------------------------------------------------------

    def on_mount(self) -> None:
        # Made now, not when the first rows overflow: making them then mounts widgets,
        # which lays the screen out again, one frame later.
        self.vertical_scrollbar  # noqa: B018
        self.horizontal_scrollbar  # noqa: B018

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


__all__ = ["CURSOR_KEYS", "CellsFn", "Column", "VirtualTable"]
