"""Where the focus is can be read without colour (NO_COLOR, a monochrome terminal): the
option under a radio set's cursor is reversed, and the options bar's box, list or switch
with the focus is underlined or reversed (#29 item 10). Snapshots: the look is the point."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RadioButton, RadioSet

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.bulk_edit import BulkEditScreen
from tenxeval_tui.screens.run.run import RunScreen
from tests.tui.common.test_dialog_fit import DialogApp
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.run.conftest import write_workspace


@pytest.fixture
def no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def label_style(button: RadioButton) -> Any:
    return button.get_component_rich_style("toggle--label")


async def test_the_radio_cursor_is_reversed_while_focused() -> None:
    app = DialogApp(BulkEditScreen(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.focused, RadioSet))
        await pilot.press("down")
        radios = app.screen.query_one(RadioSet)
        chosen = radios.query(RadioButton)[radios._selected or 0]
        await wait_for(pilot, lambda: bool(label_style(chosen).reverse))


def test_bulk_edit_without_colour(snap_compare: Any, no_colour: None) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.focused, RadioSet))
        await pilot.press("down")
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(DialogApp(BulkEditScreen(3)), terminal_size=(80, 24), run_before=run_before)


def test_run_options_focus_without_colour(
    snap_compare: Any, no_colour: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_workspace(tmp_path / "project")
    monkeypatch.chdir(root)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, RunScreen)
                and bool(pilot.app.screen.query("#case-filter"))
            ),
        )
        box = pilot.app.screen.query_one("#case-filter", Input)
        box.focus()
        box.cursor_blink = False
        await pilot.press(*"#smoke")
        await pilot.pause()

    app = WorkbenchApp(".", watch_files=False)
    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)
