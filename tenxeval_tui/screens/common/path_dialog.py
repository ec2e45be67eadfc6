"""A modal dialog asking for a file path (export to, import from).

:class:`PathDialog` shows a prompt and an input holding a suggested path; ``enter``
dismisses with the path when ``check`` finds nothing wrong with it (else the problem is
shown under the input and the dialog stays), ``escape`` with ``None``. Prompt and
problems are plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tenxeval_tui.evaluation.inert import inert

PathCheck = Callable[[str], str | None]
"""Why the typed path cannot be used (``None`` when it can)."""


class PathDialog(ModalScreen[Path | None]):
    """Ask for a path; dismisses with it (``~`` expanded), or ``None`` on escape."""

    DEFAULT_CSS = """
    PathDialog { align: center middle; }
    PathDialog #path-dialog {
        width: 84; height: auto; border: round $accent; padding: 0 1; background: $surface;
    }
    PathDialog #path-problem { color: $error; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, prompt: str, suggested: str, check: PathCheck) -> None:
        super().__init__()
        self.dialog_title = title
        self.prompt = prompt
        self.suggested = suggested
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="path-dialog") as dialog:
            dialog.border_title = Text(inert(self.dialog_title))
            yield Static(Text(inert(self.prompt, multiline=True)))
            yield Input(inert(self.suggested), id="path-input", select_on_focus=False)
            yield Static("", id="path-problem")

    @on(Input.Submitted, "#path-input")
    def _submitted(self, event: Input.Submitted) -> None:
        raw = event.value.strip()
        problem = "type a file name" if not raw else self.check(raw)
        if problem is not None:
            self.query_one("#path-problem", Static).update(Text(inert(problem)))
            return
        self.dismiss(Path(raw).expanduser())


__all__ = ["PathCheck", "PathDialog"]
