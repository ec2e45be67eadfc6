"""The case under review: what was asked, what the agent replied and called, what was
expected, and (once shown) the judge's verdict and reason.

Filled, not rebuilt, as the reviewer moves through the queue. Nothing here shows a
verdict unless :meth:`ReviewCaseView.show_judge` is told to reveal it: the case's status,
the criteria table and the transcript of the report's case view are left out on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tenxeval_tui.browsing.case_diff import expectations_for, user_turns
from tenxeval_tui.browsing.labels import Label
from tenxeval_tui.browsing.review_queue import ReviewItem
from tenxeval_tui.browsing.simulated_case import is_simulated
from tenxeval_tui.browsing.verdicts import CriterionVerdict
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.section_title import titled
from tenxeval_tui.widgets.reports.case_detail_view import turns_text
from tenxeval_tui.widgets.reports.simulated_conversation import conversation_text
from tenxeval_tui.widgets.reports.trajectory_diff import TrajectoryDiff

HIDDEN = "hidden until you label this (V shows it now)"


def verdict_word(passed: bool | None) -> Text:
    """``PASS`` / ``FAIL`` in colour (``ERROR`` for no verdict)."""
    if passed is None:
        return Text("ERROR", style="bold magenta")
    return Text("PASS", style="bold green") if passed else Text("FAIL", style="bold red")


def _criterion_line(criterion: CriterionVerdict) -> Text:
    line = Text.assemble(
        verdict_word(criterion.passed),
        " ",
        (inert(criterion.name), "bold"),
        (f"  {criterion.score:.2f} (threshold {criterion.threshold:.2f})", "dim"),
    )
    if criterion.reason:
        line.append("\n  ")
        line.append(inert(criterion.reason, multiline=True))
    return line


def judge_text(item: ReviewItem, reveal: bool) -> Text:
    """The verdict under review and its reason, or that it is hidden."""
    if not reveal:
        return Text(HIDDEN, style="dim italic")
    if item.criterion is not None:
        found = item.case.criterion(item.criterion)
        return _criterion_line(found) if found is not None else Text("(not scored)", "dim")
    text = Text.assemble("whole case ", verdict_word(item.judge))
    for criterion in item.case.criteria:
        text.append("\n")
        text.append_text(_criterion_line(criterion))
    return text


def label_line(label: Label, *, own: bool = False) -> Text:
    """``alice FAIL  "wrong city"  2026-05-20 14:30``."""
    text = Text.assemble(
        ("you" if own else inert(label.reviewer), "bold"),
        " ",
        verdict_word(label.passed),
        (f"  {label.time.replace('T', ' ').removesuffix('Z')}", "dim"),
    )
    if label.note:
        text.append(f"  “{inert(label.note)}”", style="italic")
    return text


def labels_text(
    mine: Label | None, given: Mapping[str, Label], history: list[Label], reviewer: str
) -> Text:
    """Your label, the other reviewers' of this reply, and labels of earlier replies."""
    text = Text()
    text.append_text(
        label_line(mine, own=True) if mine is not None else Text("you: not labelled", "yellow")
    )
    for name, label in sorted(given.items()):
        if name != reviewer:
            text.append("\n")
            text.append_text(label_line(label))
    for label in history[:3]:
        text.append("\n")
        text.append("earlier reply: ", style="dim")
        text.append_text(label_line(label, own=label.reviewer == reviewer))
    return text


def conversation_of(result: EvalCaseResult, eval_case: EvalCase | None) -> Text:
    """The user's turns (a simulated conversation: every turn with the agent's replies)."""
    if is_simulated(result):
        return conversation_text(result)
    expected = expectations_for(result, eval_case)
    return turns_text(expected.turns or user_turns(result))


class ReviewCaseView(VerticalScroll):
    """The judge's verdict (or that it is hidden), the conversation, the reply, the tool
    calls against the expected ones, and the expected reply."""

    DEFAULT_CSS = """
    ReviewCaseView {
        padding: 0 1;
    }
    ReviewCaseView > Static, ReviewCaseView > TrajectoryDiff {
        height: auto;
        padding: 0 1;
        margin: 0 0 1 0;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result: EvalCaseResult | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="review-judge")
        yield Static(id="review-conversation")
        yield Static(id="review-reply")
        yield TrajectoryDiff(title="Tool calls: expected vs actual", id="review-tools")
        yield Static(id="review-expected")

    def show_case(self, result: EvalCaseResult, eval_case: EvalCase | None) -> None:
        """Fill the view with ``result`` (its expectations from ``eval_case`` when known)."""
        self.result = result
        expected = expectations_for(result, eval_case)
        self.query_one("#review-conversation", Static).update(
            titled("Conversation", conversation_of(result, eval_case))
        )
        reply = Text(inert(result.actual_response, multiline=True)) or Text("(no reply)", "dim")
        self.query_one("#review-reply", Static).update(titled("Reply", reply))
        self.query_one(TrajectoryDiff).show_calls(
            expected.tool_calls, result.actual_tool_calls, check_args=expected.check_args
        )
        wanted = (
            Text(inert(expected.response, multiline=True))
            if expected.response is not None
            else Text("(no expected reply)", "dim")
        )
        self.query_one("#review-expected", Static).update(titled("Expected reply", wanted))
        self.scroll_home(animate=False)

    def show_judge(self, item: ReviewItem, reveal: bool) -> None:
        """Show the judge's verdict on ``item`` and its reason, or that it is hidden."""
        self.query_one("#review-judge", Static).update(
            titled(f"Judge: {inert(item.name)}", judge_text(item, reveal))
        )

    @property
    def judge_shown(self) -> str:
        """What the judge section shows, as plain text (for tests and the terminal)."""
        return str(self.query_one("#review-judge", Static).content)


__all__ = [
    "HIDDEN",
    "ReviewCaseView",
    "conversation_of",
    "judge_text",
    "label_line",
    "labels_text",
    "verdict_word",
]
