"""Save a simulated conversation as a case: pick an eval set file, append, take it back.

The report browser's ``ctrl+s`` on a case of a scenario run asks which eval set file of
the workspace gets the conversation (:class:`EvalSetPicker`), turns it into a
multi-turn case (:meth:`SimulationResult.to_eval_case`: each turn's user message, the
agent's reply as the expected reply, its tool calls as the expected trajectory) and
appends it through the document model (:mod:`tenxeval_tui.authoring.append_case`:
atomic save, the file's other cases untouched). :class:`CaseSaver` keeps the last
append so that ``ctrl+z`` can take it back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tenxeval_tui.authoring.append_case import AppendedCase, AppendError, append_case, undo_append
from tenxeval_tui.browsing.simulated_case import is_simulated
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert, quoted
from tenxeval_tui.evaluation.simulators.result import SimulationResult
from tenxeval_tui.screens.common.host import host_of

SAVE_ACTION = "save_as_case"
UNDO_ACTION = "undo_save_as_case"
SAVE_BINDINGS: list[BindingType] = [
    Binding(
        "ctrl+s",
        SAVE_ACTION,
        "Save as case",
        tooltip="This simulated conversation as a multi-turn case of an eval set you pick",
    ),
    Binding(
        "ctrl+z",
        UNDO_ACTION,
        "Undo save as case",
        show=False,
        tooltip="Take the case saved last out of its eval set again",
    ),
]


class EvalSetPicker(ModalScreen[Path | None]):
    """The workspace's eval set files; enter picks one, escape cancels."""

    DEFAULT_CSS = """
    EvalSetPicker {
        align: center middle;
    }
    EvalSetPicker #pick-dialog {
        width: 80%;
        max-width: 100;
        height: auto;
        max-height: 80%;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    EvalSetPicker #pick-files {
        height: auto;
        max-height: 20;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, files: list[tuple[str, Path]]) -> None:
        super().__init__()
        self.question = question
        self.files = files

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-dialog"):
            yield Static(Text(inert(self.question), style="bold"), id="pick-question")
            yield OptionList(
                *(Option(Text(inert(label)), id=str(i)) for i, (label, _) in enumerate(self.files)),
                id="pick-files",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#pick-files")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        self.dismiss(self.files[index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class CaseSaver:
    """Saves simulated conversations of ``screen`` as cases, and takes the last one back."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.last: AppendedCase | None = None

    def save(self, result: EvalCaseResult | None) -> None:
        """Ask for the eval set file, then append ``result``'s conversation to it."""
        screen = self.screen
        if result is None or not is_simulated(result):
            screen.notify(
                "Open a case of a scenario run (a simulated conversation) to save it as a case.",
                severity="warning",
                markup=False,
            )
            return
        workspace = host_of(screen.app).workspace
        files = [(workspace.display_path(p), p) for p in workspace.eval_set_files()]
        if not files:
            screen.notify(
                f"No eval set file in {workspace.root} to add the case to: create one in "
                "the editor first.",
                severity="warning",
                markup=False,
            )
            return

        async def chosen(path: Path | None) -> None:
            if path is not None:
                await self._append(result, path, workspace.display_path(path))

        question = f"Save the conversation of {quoted(result.eval_id)} as a case of…"
        screen.app.push_screen(EvalSetPicker(question, files), chosen)

    async def _append(self, result: EvalCaseResult, path: Path, shown: str) -> None:
        case = SimulationResult.from_case_result(result).to_eval_case(name=result.name)
        try:
            appended = await asyncio.to_thread(append_case, path, case)
        except (AppendError, ValueError) as exc:
            self.screen.notify(str(exc), title="Not saved", severity="error", markup=False)
            return
        self.last = appended
        turns = len(case.conversation)
        self.screen.notify(
            f"Saved as case {quoted(appended.eval_id)} ({turns} turns) in {shown}. ctrl+z takes it back.",
            title="Saved as case",
            markup=False,
        )

    async def undo(self) -> None:
        """Take the case saved last out of its file again."""
        appended = self.last
        if appended is None:
            self.screen.notify("No case saved from here to take back.", markup=False)
            return
        try:
            await asyncio.to_thread(undo_append, appended)
        except AppendError as exc:
            self.screen.notify(str(exc), title="Not undone", severity="error", markup=False)
            return
        self.last = None
        self.screen.notify(
            f"Took case {quoted(appended.eval_id)} out of {appended.path.name} again.", markup=False
        )


__all__ = ["SAVE_ACTION", "SAVE_BINDINGS", "UNDO_ACTION", "CaseSaver", "EvalSetPicker"]
