"""Both versions of a file changed on disk while it had unsaved edits: mine and the disk's."""

from __future__ import annotations

import difflib

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.button_bar import ButtonBar


def _diff_lines(mine: str, disk: str, name: str) -> list[str]:
    return list(
        difflib.unified_diff(
            disk.splitlines(), mine.splitlines(), f"{name} (on disk)", f"{name} (mine)", lineterm=""
        )
    )


def unified_diff(mine: str, disk: str, name: str) -> str:
    """The unified diff from the disk's version to mine, as the files' own text."""
    return "".join(line + "\n" for line in _diff_lines(mine, disk, name))


def diff_text(mine: str, disk: str, name: str) -> Text:
    """A coloured unified diff from the disk's version to mine (plain text, no markup)."""
    text = Text()
    for line in _diff_lines(mine, disk, name):
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
    """Show what differs; dismisses with ``reload`` (take the disk's), ``keep`` (mine) or,
    when the two touched different cases, ``merge`` (the disk's with my edits on top).
    ``y`` copies the diff."""

    BINDINGS = [
        Binding("r", "dismiss('reload')", "Reload from disk"),
        Binding("k,escape", "dismiss('keep')", "Keep mine"),
        Binding("m", "merge", "Merge: keep both"),
        Binding("y", "copy_diff", "Copy the diff"),
    ]

    def __init__(self, mine: str, disk: str, name: str, *, can_merge: bool = False) -> None:
        super().__init__()
        self.mine = mine
        self.disk = disk
        self.file_name = name
        self.can_merge = can_merge

    def compose(self) -> ComposeResult:
        with Vertical(id="compare-dialog") as dialog:
            dialog.border_title = Text(inert(f"{self.file_name}: disk (-) vs mine (+)"))
            with VerticalScroll(id="compare-diff"):
                yield Static(diff_text(self.mine, self.disk, self.file_name))
            with ButtonBar(id="choices"):
                yield Button("Reload from disk (r)", id="reload")
                yield Button("Keep mine (k)", id="keep")
                if self.can_merge:
                    yield Button("Merge: keep both (m)", id="merge")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_merge if action == "merge" else True

    def action_merge(self) -> None:
        """Keep both versions (offered only when they touched different cases)."""
        self.dismiss("merge")

    def action_copy_diff(self) -> None:
        """Put the unified diff (the files' own text, nothing escaped) on the clipboard."""
        text = unified_diff(self.mine, self.disk, self.file_name)
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied the diff ({len(text.splitlines())} lines) to the clipboard.")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "keep")
