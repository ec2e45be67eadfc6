"""One case on a screen of its own (from a comparison: with the baseline run beside it)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.copy_menu import copy_from_case
from tenxeval_tui.screens.editor.case_actions import (
    CONTINUE_ACTION,
    EDIT_ACTION,
    RERUN_ACTION,
    app_supports,
    request_case_action,
)
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView


class CaseScreen(Screen[None]):
    """The detail of one case result."""

    CSS_PATH = "../../styles/reports.tcss"

    HELP_WHERE = "one case"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+e", "edit_case", "Edit case", tooltip="This case in the editor"),
        Binding("s", "rerun_case", "Rerun case", tooltip="Run this case again in the run view"),
        Binding(
            "f4",
            "continue_conversation",
            "Continue the chat",
            tooltip="A chat with the agent, this case's user messages replayed first",
        ),
        Binding(
            "y", "copy", "Copy…", show=False, tooltip="Copy the reply, tool calls, diff or path"
        ),
    ]

    def __init__(
        self,
        result: EvalCaseResult,
        *,
        report_title: str = "",
        eval_set_id: str = "",
        baseline: EvalCaseResult | None = None,
        eval_case: EvalCase | None = None,
        report_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.report_path = report_path
        self.result = result
        self.report_title = report_title
        self.eval_set_id = eval_set_id or result.eval_set_id
        self.baseline = baseline
        self.eval_case = eval_case

    def compose(self) -> ComposeResult:
        yield CaseDetailView(id="case-detail")
        yield Footer()

    def on_mount(self) -> None:
        view = self.query_one(CaseDetailView)
        view.show_case(
            self.result,
            report_title=self.report_title,
            baseline=self.baseline,
            eval_case=self.eval_case,
        )
        view.focus()

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in (EDIT_ACTION, RERUN_ACTION, CONTINUE_ACTION):
            return True if app_supports(self.app, action) else None
        if action == "back":
            return can_go_back(self)
        return True

    def action_copy(self) -> None:
        """Ask what to copy (reply, tool calls, diff, the report's path), then copy it."""
        copy_from_case(
            self,
            self.result,
            baseline=self.baseline,
            eval_case=self.eval_case,
            path=self.report_path,
        )

    async def action_edit_case(self) -> None:
        await request_case_action(self.app, EDIT_ACTION, self.eval_set_id, self.result.eval_id)

    async def action_rerun_case(self) -> None:
        await request_case_action(self.app, RERUN_ACTION, self.eval_set_id, self.result.eval_id)

    async def action_continue_conversation(self) -> None:
        """Continue this case's conversation in a chat with the agent (in the editor)."""
        await request_case_action(self.app, CONTINUE_ACTION, self.eval_set_id, self.result.eval_id)
