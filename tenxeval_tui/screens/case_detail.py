"""One case: what was asked, expected vs actual, every criterion, tokens, errors.

Given the same case from a baseline run, it also shows the two runs side by side.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tenxeval_tui.case_diff import expectations_for, user_turns
from tenxeval_tui.evaluation.dataset import EvalCase
from tenxeval_tui.evaluation.execution import TokenUsage
from tenxeval_tui.evaluation.results import EvalCaseResult
from tenxeval_tui.screens.case_actions import (
    EDIT_ACTION,
    RERUN_ACTION,
    app_supports,
    request_case_action,
)
from tenxeval_tui.widgets.criteria_table import CriteriaTable
from tenxeval_tui.widgets.response_diff import ResponseDiff
from tenxeval_tui.widgets.status_text import status_text
from tenxeval_tui.widgets.trajectory_diff import TrajectoryDiff


def _section(title: str) -> Static:
    return Static(Text(title, style="bold underline"), classes="case-section")


def node_order_text(expected: list[str] | None, actual: list[str]) -> Text:
    """Expected and actual node order, one line each, the actual line marked if it differs."""
    arrow = " → "
    text = Text()
    text.append("expected  ", style="bold")
    if expected is None:
        text.append("(not recorded)", style="dim")
    else:
        text.append(arrow.join(expected) or "(none)")
    text.append("\nactual    ", style="bold")
    same = expected is None or expected == actual
    text.append(arrow.join(actual) or "(none)", style="" if same else "yellow")
    if not same:
        text.append("   differs", style="bold yellow")
    return text


def tokens_text(result: EvalCaseResult) -> Text:
    """Agent, judge and total tokens of a case."""
    total = result.token_usage
    agent = result.agent_token_usage
    judge_in = max(total.input_tokens - agent.input_tokens, 0)
    judge_out = max(total.output_tokens - agent.output_tokens, 0)

    def line(label: str, usage: TokenUsage | tuple[int, int]) -> Text:
        inp, out = (
            (usage.input_tokens, usage.output_tokens) if isinstance(usage, TokenUsage) else usage
        )
        return Text.assemble(
            (f"{label:<8}", "bold"), f"{inp} in, {out} out, ", (f"{inp + out} total", "cyan"), "\n"
        )

    text = Text.assemble(line("agent", agent), line("judges", (judge_in, judge_out)))
    text.append_text(line("total", total))
    text.rstrip()
    return text


class CaseScreen(Screen[None]):
    """The detail of one case result."""

    CSS_PATH = "../styles/reports.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("e", "edit_case", "Edit case"),
        Binding("r", "rerun_case", "Rerun case"),
    ]

    def __init__(
        self,
        result: EvalCaseResult,
        *,
        report_title: str = "",
        eval_set_id: str = "",
        baseline: EvalCaseResult | None = None,
        eval_case: EvalCase | None = None,
    ) -> None:
        super().__init__()
        self.result = result
        self.report_title = report_title
        self.eval_set_id = eval_set_id or result.eval_set_id
        self.baseline = baseline
        self.eval_case = eval_case

    def compose(self) -> ComposeResult:
        r = self.result
        expected = expectations_for(r, self.eval_case)
        with VerticalScroll(id="case-detail"):
            yield Static(self._title(), id="case-title")
            if r.error:
                yield _section("Error")
                yield Static(Text(r.error, style="magenta"), id="case-error")
            yield _section("Turns")
            turns = expected.turns or user_turns(r)
            yield Static(self._turns(turns), id="case-turns")
            if self.baseline is not None:
                yield from self._compare_sections(self.baseline)
            yield _section("Response: expected vs actual")
            diff = ResponseDiff(id="response-diff")
            diff.show_texts("Expected", expected.response, "Actual", r.actual_response)
            yield diff
            yield _section("Tool trajectory: expected vs actual")
            trajectory = TrajectoryDiff(id="trajectory-diff")
            trajectory.show_calls(expected.tool_calls, r.actual_tool_calls)
            yield trajectory
            yield _section("Node order")
            yield Static(node_order_text(expected.node_order, r.node_visits), id="node-order")
            yield _section("Criteria")
            criteria = CriteriaTable(id="criteria-table")
            criteria.show_results(
                r.criterion_results,
                self.baseline.criterion_results if self.baseline is not None else None,
            )
            yield criteria
            yield _section("Tokens")
            yield Static(tokens_text(r), id="case-tokens")
        yield Footer()

    def _compare_sections(self, baseline: EvalCaseResult) -> ComposeResult:
        r = self.result
        yield _section("Response: baseline run vs this run")
        diff = ResponseDiff(id="baseline-response-diff")
        diff.show_texts(
            f"Baseline ({baseline.status})",
            baseline.actual_response,
            f"This run ({r.status})",
            r.actual_response,
        )
        yield diff
        yield _section("Tool calls: baseline run vs this run")
        trajectory = TrajectoryDiff(id="baseline-trajectory-diff")
        trajectory.show_calls(
            baseline.actual_tool_calls, r.actual_tool_calls, ("Baseline", "This run")
        )
        yield trajectory
        if baseline.error:
            yield Static(
                Text.assemble(("Baseline error: ", "bold"), (baseline.error, "magenta")),
                id="baseline-error",
            )

    def _title(self) -> Text:
        r = self.result
        title = Text.assemble(status_text(r.status), " ", (r.eval_id, "bold"))
        if r.name and r.name != r.eval_id:
            title.append(f"  {r.name}")
        title.append(f"\n{r.duration_seconds:.2f}s", style="cyan")
        if self.report_title:
            title.append(f"   in {self.report_title}", style="dim")
        if self.baseline is not None:
            title.append("   baseline: ", style="dim")
            title.append_text(status_text(self.baseline.status))
        return title

    @staticmethod
    def _turns(turns: list[str]) -> Text:
        if not turns:
            return Text("(not recorded in the report)", style="dim")
        text = Text()
        for i, turn in enumerate(turns, 1):
            if i > 1:
                text.append("\n")
            text.append(f"{i}. ", style="bold")
            text.append(turn)
        return text

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in (EDIT_ACTION, RERUN_ACTION):
            return True if app_supports(self.app, action) else None
        return True

    async def action_edit_case(self) -> None:
        await request_case_action(self.app, EDIT_ACTION, self.eval_set_id, self.result.eval_id)

    async def action_rerun_case(self) -> None:
        await request_case_action(self.app, RERUN_ACTION, self.eval_set_id, self.result.eval_id)
