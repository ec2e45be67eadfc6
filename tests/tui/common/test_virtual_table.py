"""The virtual table renders each visible row once and shows new items when they are set."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip

from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
from tests.tui.conftest import wait_for


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.built: list[str] = []

    def cells(self, item: str) -> Sequence[Text]:
        self.built.append(item)
        return (Text(item),)

    def compose(self) -> ComposeResult:
        yield VirtualTable([Column("Item")], self.cells)


class FrameCountingApp(TableApp):
    def __init__(self) -> None:
        super().__init__()
        self.frames = 0

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            self.frames += 1


async def test_resizing_the_table_paints_one_frame_with_its_scrollbar_up_to_date() -> None:
    app = FrameCountingApp()
    async with app.run_test(size=(40, 20)) as pilot:
        table = app.query_one(VirtualTable)
        table.set_items([f"item {i}" for i in range(100)])
        bar = table.vertical_scrollbar
        await wait_for(pilot, lambda: bar.size.height == 20, what="the scrollbar laid out")
        frames = app.frames
        table.styles.height = 8  # as the report browser's table is when a case opens
        await wait_for(pilot, lambda: app.frames > frames, what="the resized table painted")
        # Time itself is tested here: a second frame would come on a later refresh tick.
        await asyncio.sleep(0.1)
        await pilot.pause()
        # Before, the scrollbar's new size asked for a second layout pass and its new
        # window sizes for a repaint: a second frame that painted the same bar again.
        assert app.frames == frames + 1
        assert bar.size.height == 8 and bar.window_size == 8
        assert bar.window_virtual_size == 101


async def test_rows_are_rendered_once_until_the_items_change() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(VirtualTable)
        table.set_items([f"item {i}" for i in range(100)])
        await pilot.pause()
        assert table.render_line(1).text.startswith("item 0")
        first = list(app.built)
        assert "item 0" in first and "item 50" not in first  # only the visible rows
        table.refresh()
        table.action_cursor_down()  # the cursor row is drawn in another style, same cells
        await pilot.pause()
        assert table.render_line(2).text.startswith("item 1")
        assert app.built == first
        table.set_items(["other"])
        await pilot.pause()
        assert table.render_line(1).text.startswith("other")
        assert app.built[-1] == "other"


async def test_a_layout_pass_that_changes_nothing_leaves_the_scrollbars_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(VirtualTable)
        items = [f"item {i}" for i in range(100)]
        table.set_items(items)
        bar = table.vertical_scrollbar
        # the header and every row, once the layout that follows has run
        await wait_for(pilot, lambda: bar.window_virtual_size == 101, what="the bar laid out")
        refreshed: list[bool] = []
        refresh = bar.refresh
        monkeypatch.setattr(bar, "refresh", lambda *a, **k: refreshed.append(True) or refresh())
        app.screen.refresh(layout=True)
        await pilot.pause()
        assert refreshed == []  # no repaint, so no frame more
        table.set_items(items[:50])
        await wait_for(pilot, lambda: bar.window_virtual_size == 51, what="the bar laid out")
        assert refreshed


async def test_rows_fit_beside_the_vertical_scrollbar_without_a_horizontal_one() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(VirtualTable)
        table.set_items([f"item {i}" for i in range(100)])  # more rows than fit: a vertical bar
        await wait_for(pilot, lambda: table.show_vertical_scrollbar, what="the vertical bar")
        assert table.virtual_size.width == table.scrollable_content_region.width
        assert not table.show_horizontal_scrollbar


class LineCountingTable(VirtualTable):
    """Notes each line it draws."""

    drawn: list[int]

    def render_line(self, y: int) -> Strip:
        self.drawn.append(y)
        return super().render_line(y)


class LineCountingApp(FrameCountingApp):
    def compose(self) -> ComposeResult:
        table = LineCountingTable([Column("Item")], self.cells)
        table.drawn = []
        yield table


async def test_a_cursor_move_repaints_the_two_rows_it_changes() -> None:
    app = LineCountingApp()
    async with app.run_test(size=(40, 20)) as pilot:
        table = app.query_one(LineCountingTable)
        table.set_items([f"item {i}" for i in range(100)])
        table.focus()
        await pilot.pause()
        for key, left, reached in (("down", 1, 2), ("down", 2, 3), ("up", 3, 2)):
            table.drawn.clear()
            frames = app.frames
            await pilot.press(key)
            await wait_for(pilot, lambda n=frames: app.frames > n, what=f"the frame of {key}")
            # Before, the cursor's reactive repainted the whole table: every line on screen.
            assert sorted(set(table.drawn)) == sorted([left, reached]), key
        table.drawn.clear()
        frames = app.frames
        await pilot.press("pagedown")  # scrolls: every row moved
        await wait_for(pilot, lambda: app.frames > frames, what="the frame of pagedown")
        assert len(set(table.drawn)) == 20
