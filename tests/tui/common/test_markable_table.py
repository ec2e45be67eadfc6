"""A table whose rows can be selected: space, * and escape, the ✓ gutter that comes and goes,
the count posted to the screen, and a selection kept by key across a new list of items."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import App, ComposeResult

from tenxeval_tui.widgets.common.markable_table import MARK, MARK_KEYS, MarkableTable
from tenxeval_tui.widgets.common.virtual_table import Column
from tests.tui.conftest import wait_for


class Cases(MarkableTable):
    """Items ``"name:status"``; a case is failed when its status says so."""

    BINDINGS = MARK_KEYS  # with the table's own (Textual merges a class's with its bases')

    def is_failed(self, item: object) -> bool:
        return str(item).endswith(":failed")


class MarkApp(App[None]):
    BINDINGS = [("escape", "escaped", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.counts: list[int] = []
        self.escaped = 0

    def compose(self) -> ComposeResult:
        yield Cases([Column("Case", 12), Column("Why")], self.cells)

    @staticmethod
    def cells(item: str) -> Sequence[Text]:
        name, status = item.split(":")
        return (Text(name), Text(status))

    def on_mount(self) -> None:
        table = self.query_one(Cases)
        table.set_items(["rome:passed", "oslo:failed", "kyiv:failed", "lima:error"])
        table.focus()

    def on_markable_table_marks_changed(self, event: MarkableTable.MarksChanged) -> None:
        self.counts.append(event.count)

    def action_escaped(self) -> None:
        self.escaped += 1


def line(table: Cases, y: int) -> str:
    return table.render_line(y).text


async def test_space_selects_and_moves_down_the_gutter_shows_only_while_selected() -> None:
    app = MarkApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(Cases)
        assert line(table, 1).startswith("rome ")  # no gutter: the table looks as before
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: app.counts == [1])
        assert table.marked_keys == ["oslo:failed"] and table.cursor == 2
        assert line(table, 0).startswith(f"{MARK} Case")
        assert line(table, 1).startswith("  rome ")
        assert line(table, 2).startswith(f"{MARK} oslo ")
        await pilot.press("up", "space")  # oslo again: unselected, and the gutter goes
        await wait_for(pilot, lambda: app.counts == [1, 0])
        assert table.marked_keys == []
        assert line(table, 2).startswith("oslo ")


async def test_star_adds_the_failed_and_escape_clears_then_goes_on_to_the_screen() -> None:
    app = MarkApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(Cases)
        await pilot.press("space", "asterisk")
        await wait_for(pilot, lambda: table.mark_count == 3)
        assert table.marked_keys == ["rome:passed", "oslo:failed", "kyiv:failed"]
        assert table.border_subtitle == "3 selected · esc clears"
        await pilot.press("escape")
        await wait_for(pilot, lambda: table.mark_count == 0)
        assert app.escaped == 0  # the table took the key
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.escaped == 1)  # nothing selected: the screen's key


async def test_the_selection_is_kept_by_key_when_the_rows_change() -> None:
    app = MarkApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(Cases)
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: table.mark_count == 1)
        table.set_items(["kyiv:failed"])  # a filter hides oslo: it stays selected
        await pilot.pause()
        assert table.marked_keys == ["oslo:failed"]
        assert not table.is_marked("kyiv:failed")
        table.set_items(["rome:passed", "oslo:failed"])
        await pilot.pause()
        assert line(table, 2).startswith(f"{MARK} oslo ")
