"""Ask for the file name of a new eval set."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tenxeval_tui.authoring.eval_set_header import (
    FALLBACK_ID,
    agent_problem,
    eval_set_id_problem,
    slug_for,
)
from tenxeval_tui.evaluation.inert import inert, is_inert
from tenxeval_tui.settings.workspace import EVAL_SET_SUFFIX


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


@dataclass(frozen=True)
class NewEvalSet:
    """What the dialog asked for: the file, the eval set's id and the agent it names."""

    path: Path
    eval_set_id: str
    agent: str = ""


class NewEvalSetScreen(ModalScreen[NewEvalSet | None]):
    """File name, id and agent boxes; enter creates the eval set, escape cancels.

    The id box may stay empty: the id is then the file name's slug, which its
    placeholder shows as the name is typed.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "New eval set"
            yield Static("File name (.evalset.json is added):")
            yield Input(placeholder="smoke", id="new-name")
            yield Static("eval_set_id (names its report files; empty: from the file name):")
            yield Input(placeholder=FALLBACK_ID, id="new-id")
            yield Static("Agent it runs with, module:attribute (optional, metadata.agent):")
            yield Input(placeholder="my_agent.graph:build_graph", id="new-agent")
            yield Static("", id="new-hint")

    def _checked(self) -> tuple[NewEvalSet | None, str]:
        """The eval set the boxes describe, or ``None`` and the first problem."""
        path, hint = new_eval_set_path(self.folder, self.query_one("#new-name", Input).value)
        typed_id = self.query_one("#new-id", Input).value
        agent = self.query_one("#new-agent", Input).value.strip()
        problem = (eval_set_id_problem(typed_id) if typed_id else None) or agent_problem(agent)
        if path is None or problem is not None:
            return None, hint if path is None else str(problem)
        return NewEvalSet(path, typed_id or slug_for(path), agent), hint

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if event.input.id == "new-name":
            path, _ = new_eval_set_path(self.folder, event.value)
            self.query_one("#new-id", Input).placeholder = (
                inert(slug_for(path)) if path else FALLBACK_ID
            )
        _, hint = self._checked()
        self.query_one("#new-hint", Static).update(Text(inert(hint)))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        new, hint = self._checked()
        if new is None:
            self.query_one("#new-hint", Static).update(Text(inert(hint)))
            return
        self.dismiss(new)
