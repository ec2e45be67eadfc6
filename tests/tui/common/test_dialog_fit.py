"""Dialogs fit the terminal: at 80 and at 160 columns every button is drawn inside its
dialog (#29 item 10: the accept dialog's "Node order only" and "Cancel", the copy menu's
last button and "Show both" of the changed-on-disk dialog were cut off)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Button

from tenxeval_tui.screens.accept.one_case import CHOICES as ACCEPT_CHOICES
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.compare_versions import CompareVersionsScreen
from tenxeval_tui.screens.run.run_stop import STOP_CHOICES
from tests.tui.conftest import wait_for

COPY = {"reply": "Reply", "tools": "Tool calls", "diff": "Diff", "path": "Path of the report"}


class DialogApp(App[None]):
    """Shows one dialog over an empty screen, with the workbench's styles."""

    CSS_PATH = "../../../tenxeval_tui/styles/app.tcss"

    def __init__(self, dialog: ModalScreen[Any]) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


DIALOGS = {
    "accept": lambda: ChoiceScreen("Accept what this run did?", ACCEPT_CHOICES, title="Accept"),
    "copy": lambda: ChoiceScreen("Copy to the clipboard:", COPY, title="Copy (y)"),
    "stop": lambda: ChoiceScreen("Stop case rome?", STOP_CHOICES, title="Stop case"),
    "changed on disk": lambda: CompareVersionsScreen(
        "mine\n", "theirs\n", "weather.evalset.json", can_merge=True
    ),
}


@pytest.mark.parametrize("width", [80, 160])
@pytest.mark.parametrize("name", list(DIALOGS))
async def test_every_button_of_a_dialog_is_drawn(name: str, width: int) -> None:
    app = DialogApp(DIALOGS[name]())
    async with app.run_test(size=(width, 24 if width == 80 else 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(Button)))
        await pilot.pause()
        dialog = app.screen.query_one("#dialog, #compare-dialog")
        inside = dialog.content_region
        for button in app.screen.query(Button):
            region = button.region
            assert region.width >= len(str(button.label)), f"{button.label!r} is cut"
            assert inside.contains_region(region), f"{button.label!r} is drawn past the dialog"


async def test_keep_it_running_has_a_key_and_esc_keeps_the_case_running() -> None:
    app = DialogApp(DIALOGS["stop"]())
    answers: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(Button)))
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert "Keep it running (k)" in labels
        app.screen.dismiss = answers.append  # type: ignore[method-assign,assignment]
        await pilot.press("k")
        await pilot.press("escape")
    assert answers == ["keep", "cancel"]
    assert "cancel" not in STOP_CHOICES  # esc's answer never stops the case
