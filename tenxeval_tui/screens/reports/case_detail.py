"""One case on a screen of its own (from a comparison: with the baseline run beside it)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tenxeval_tui.browsing.simulated_case import is_simulated
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.accept.one_case import ACCEPT_KEY, accept_actual, accepted_run
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.copy_menu import copy_from_case
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.screens.reports.case_requests import (
    CONTINUE_ACTION,
    EDIT_ACTION,
    RERUN_ACTION,
    app_supports,
    request_case_action,
)
from tenxeval_tui.screens.reports.save_as_case import SAVE_ACTION, SAVE_BINDINGS, CaseSaver
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.reports.case_detail_view import (
    REPEAT_ACTIONS,
    REPEAT_KEYS,
    TRANSCRIPT_KEY,
    CaseDetailView,
)


class CaseScreen(Screen[None]):
    """The detail of one case result."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "one case"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+e", "edit_case", "Edit case", tooltip="This case in the editor"),
        Binding("s", "rerun_case", "Run again", tooltip="Run this case again in the run view"),
        ACCEPT_KEY,
        *REPEAT_KEYS,
        TRANSCRIPT_KEY,
        Binding(
            "f6",
            "continue_conversation",
            "Continue the chat",
            tooltip="A chat with the agent, this case's user messages replayed first",
        ),
        Binding(
            "y", "copy", "Copy…", show=False, tooltip="Copy the reply, tool calls, diff or path"
        ),
        *SAVE_BINDINGS,
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
        run_timestamp: float | None = None,
    ) -> None:
        super().__init__()
        self.run_timestamp = run_timestamp
        """When the run of ``result`` ended (its report's timestamp): accepting its actual
        needs it, to refuse when the eval set changed since."""
        self.report_path = report_path
        self.result = result
        self.report_title = report_title
        self.eval_set_id = eval_set_id or result.eval_set_id
        self.baseline = baseline
        self.eval_case = eval_case
        self.case_saver = CaseSaver(self)

    def compose(self) -> ComposeResult:
        yield CaseDetailView(id="case-detail")
        yield SteadyFooter()

    def on_mount(self) -> None:
        view = self.query_one(CaseDetailView)
        view.show_case(
            self.result,
            report_title=self.report_title,
            baseline=self.baseline,
            eval_case=self.eval_case,
        )
        view.look_up_expectations(host_of(self.app).workspace.eval_set_files, self.eval_set_id)
        view.focus()

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in (EDIT_ACTION, RERUN_ACTION, CONTINUE_ACTION):
            return True if app_supports(self.app, action) else None
        if action == "back":
            return can_go_back(self)
        if action == SAVE_ACTION:
            return is_simulated(self.result)  # hidden for other cases
        if action in REPEAT_ACTIONS:
            return bool(self.result.repeat_results)
        if action == "accept_actual":
            return self.run_timestamp is not None
        return True

    @work(exclusive=True, group="accept")
    async def action_accept_actual(self) -> None:
        """Write what the case shown (or its repeat shown) did as its expectations."""
        if self.run_timestamp is None:
            return
        run = accepted_run(self.result, self.query_one(CaseDetailView).repeat)
        await accept_actual(self, run, self.eval_set_id, self.run_timestamp)

    def action_next_repeat(self) -> None:
        self.query_one(CaseDetailView).step_repeat(1)

    def action_toggle_transcript(self) -> None:
        """Show the case as a transcript, or its detail again."""
        self.query_one(CaseDetailView).toggle_transcript()

    def action_previous_repeat(self) -> None:
        self.query_one(CaseDetailView).step_repeat(-1)

    def action_save_as_case(self) -> None:
        """Save this simulated conversation as a case of an eval set (asks which)."""
        self.case_saver.save(self.result)

    async def action_undo_save_as_case(self) -> None:
        """Take the case saved last out of its eval set again."""
        await self.case_saver.undo()

    def action_copy(self) -> None:
        """Ask what to copy (reply, tool calls, diff, the report's path), then copy it."""
        copy_from_case(
            self,
            self.result,
            baseline=self.baseline,
            eval_case=self.eval_case,
            path=self.report_path,
        )

    def action_edit_case(self) -> None:
        """Ask the app to open this case in the editor."""
        request_case_action(self, EDIT_ACTION, self.eval_set_id, self.result.eval_id)

    def action_rerun_case(self) -> None:
        """Ask the app to run this case again in the run view."""
        request_case_action(self, RERUN_ACTION, self.eval_set_id, self.result.eval_id)

    def action_continue_conversation(self) -> None:
        """Continue this case's conversation in a chat with the agent (in the editor)."""
        request_case_action(self, CONTINUE_ACTION, self.eval_set_id, self.result.eval_id)
