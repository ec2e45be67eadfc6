"""Ask for the file name of a new eval set."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tenxeval_tui.evaluation.inert import inert, is_inert
from tenxeval_tui.workspace import EVAL_SET_SUFFIX


def new_eval_set_path(folder: Path, typed: str) -> tuple[Path | None, str]:
    """The file a typed name stands for, or ``None`` and why it cannot be used."""
    name = typed.strip()
    if not name:
        return None, "type a file name"
    if not name.endswith(EVAL_SET_SUFFIX):
        name = name.removesuffix(".json") + EVAL_SET_SUFFIX
    if "/" in name or "\\" in name:
        return None, "a file name only, without folders (it goes in the workspace folder)"
    if not is_inert(name):
        return None, "cannot use this name: it holds a control character"
    path = folder / name
    try:
        exists = path.exists()
    except (OSError, ValueError) as exc:  # too long for the file system, a NUL byte...
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return None, f"cannot use this name: {reason}"
    if exists:
        return None, f"{name} already exists"
    return path, f"will be written to {name} on the first save (ctrl+s)"


class NewEvalSetScreen(ModalScreen[Path | None]):
    """A file name box; enter creates the eval set, escape cancels."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "New eval set"
            yield Static("File name (.evalset.json is added):")
            yield Input(placeholder="smoke", id="new-name")
            yield Static("", id="new-hint")

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        _, hint = new_eval_set_path(self.folder, event.value)
        self.query_one("#new-hint", Static).update(Text(inert(hint)))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        path, hint = new_eval_set_path(self.folder, event.value)
        if path is None:
            self.query_one("#new-hint", Static).update(Text(inert(hint)))
            return
        self.dismiss(path)
