"""The run view's case table: a virtual table keyed by case; rows are drawn when on screen,
a changed case repaints its own row, and the cursor speaks in case keys."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult

from tenxeval_tui.runs.live_run import CaseState, CaseStatus
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable, status_cell
from tests.tui.conftest import wait_for


class TableApp(App[None]):
    """One run case table; notes the keys it highlights and selects, and every row drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[Any] = []
        self.selected: list[Any] = []
        self.drawn: list[str] = []

    def compose(self) -> ComposeResult:
        yield RunCaseTable(id="cases")

    def on_mount(self) -> None:
        table = self.query_one(RunCaseTable)
        cells_of = table.cells_of

        def counting(key: str) -> list[Text]:
            self.drawn.append(key)
            return cells_of(key)

        table.cells_of = counting  # type: ignore[method-assign]

    @on(RunCaseTable.Highlighted)
    def _highlighted(self, event: RunCaseTable.Highlighted) -> None:
        self.highlighted.append(event.item)

    @on(RunCaseTable.Selected)
    def _selected(self, event: RunCaseTable.Selected) -> None:
        self.selected.append(event.item)


def queued(count: int) -> list[CaseState]:
    return [CaseState("big", f"c{i:04d}", f"case {i}") for i in range(count)]


async def test_many_queued_cases_draw_only_the_rows_on_screen() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(RunCaseTable)
        states = queued(5_000)
        for state in states:
            table.show(state, "Big")
        await wait_for(pilot, lambda: table.virtual_size.height == 5_001)  # header + rows
        assert table.row_count == 5_000
        await wait_for(pilot, lambda: len(app.drawn) > 0, what="the first paint")
        assert 0 < len(app.drawn) <= table.size.height  # never the rows off screen
        await wait_for(pilot, lambda: bool(app.highlighted), what="the Highlighted message")
        assert app.highlighted == ["big::c0000"]  # the first case is highlighted at once
        assert table.render_line(1).text.lstrip().startswith("· queued")


async def test_a_changed_case_repaints_its_own_row_only() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(RunCaseTable)
        states = queued(100)
        table.show_all((state, "Big") for state in states)
        await wait_for(pilot, lambda: "big::c0003" in app.drawn, what="the first paint")
        await pilot.pause()
        drawn = len(app.drawn)
        states[3].status = CaseStatus.RUNNING
        table.show(states[3], "Big")
        await wait_for(pilot, lambda: len(app.drawn) > drawn)
        await pilot.pause()
        assert app.drawn[drawn:] == ["big::c0003"]
        assert "running" in table.render_line(4).text  # the header is line 0
        assert "queued" in table.render_line(3).text


async def test_keys_move_in_case_keys_and_enter_selects() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 12)) as pilot:
        table = app.query_one(RunCaseTable)
        table.show_all((state, "Big") for state in queued(50))
        table.focus()
        await pilot.press("j", "j", "k")
        await wait_for(pilot, lambda: table.selected_key == "big::c0001")
        await pilot.press("end")
        await wait_for(pilot, lambda: table.selected_key == "big::c0049")
        await wait_for(pilot, lambda: table.scroll_offset.y > 0)  # the last row scrolled to
        await pilot.press("pageup")
        await wait_for(
            pilot, lambda: table.cursor == 49 - table.scrollable_content_region.height + 1
        )
        await pilot.press("home", "enter")
        await wait_for(pilot, lambda: app.selected == ["big::c0000"])
        assert app.highlighted[:3] == ["big::c0000", "big::c0001", "big::c0002"]


async def test_forgetting_a_case_keeps_the_others_findable_by_key() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(RunCaseTable)
        table.show_all((state, "Big") for state in queued(10))
        await pilot.pause()
        table.forget("big::c0004")
        assert not table.has_key("big::c0004") and table.row_count == 9
        assert table.move_to("big::c0007")
        assert table.cursor == 6
        assert str(table.cells_of("big::c0007")[2]) == "case 7"
        table.reset()
        assert table.row_count == 0 and table.selected_key is None


async def test_a_case_retried_after_its_worker_died_is_marked_after_its_status() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(RunCaseTable)
        plain, retried = queued(2)
        retried.retried = "worker 1 of 2 killed by signal 9 (SIGKILL)"
        table.show_all((state, "Big") for state in (plain, retried))
        await wait_for(pilot, lambda: "queued ↻" in table.render_line(2).text)
        assert "↻" not in table.render_line(1).text
        for state in (plain, retried):
            state.status = CaseStatus.PASSED
            table.show(state, "Big")
        await wait_for(pilot, lambda: "✓ passed ↻" in table.render_line(2).text)
        assert "↻" not in table.render_line(1).text
    # only the sign where the table is too narrow for the word: no room for the mark either
    assert status_cell(retried, 0.0, None, short=True).plain == "✓"
