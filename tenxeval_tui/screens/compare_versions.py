"""Both versions of a file changed on disk while it had unsaved edits: mine and the disk's."""

from __future__ import annotations

import difflib

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tenxeval_tui.evaluation.inert import inert


def diff_text(mine: str, disk: str, name: str) -> Text:
    """A coloured unified diff from the disk's version to mine (plain text, no markup)."""
    text = Text()
    lines = difflib.unified_diff(
        disk.splitlines(), mine.splitlines(), f"{name} (on disk)", f"{name} (mine)", lineterm=""
    )
    for line in lines:
        style = ""
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        text.append(inert(line) + "\n", style)
    if not text:
        text.append("The two versions are the same.")
    return text


class CompareVersionsScreen(ModalScreen[str]):
    """Show what differs; dismisses with ``reload`` (take the disk's) or ``keep`` (mine)."""

    BINDINGS = [
        Binding("r", "dismiss('reload')", "Reload from disk"),
        Binding("k,escape", "dismiss('keep')", "Keep mine"),
    ]

    def __init__(self, mine: str, disk: str, name: str) -> None:
        super().__init__()
        self.mine = mine
        self.disk = disk
        self.file_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="compare-dialog") as dialog:
            dialog.border_title = Text(inert(f"{self.file_name}: disk (-) vs mine (+)"))
            with VerticalScroll(id="compare-diff"):
                yield Static(diff_text(self.mine, self.disk, self.file_name))
            with Horizontal(id="choices"):
                yield Button("Reload from disk (r)", id="reload")
                yield Button("Keep mine (k)", id="keep")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "keep")
