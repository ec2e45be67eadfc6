"""Everything about one case result, in one scrollable view that is filled, not rebuilt.

Used by the report screen (where it swaps with the case table, so opening a case
costs an update of a few widgets, not a new screen) and by the case screen of a
comparison (where a baseline run of the same case is shown next to it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tenxeval_tui.browsing.case_diff import expectations_for, user_turns
from tenxeval_tui.browsing.case_source import FileNodeOrders, NodeOrderFound
from tenxeval_tui.browsing.repeats import divergence_label, repeat_lines, stats_label
from tenxeval_tui.evaluation.case_control import STOPPED_EARLY_KEY
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tenxeval_tui.runs.transcript import result_transcript
from tenxeval_tui.widgets.common.in_place import update_in_place
from tenxeval_tui.widgets.common.section_title import titled
from tenxeval_tui.widgets.common.transcript_view import TranscriptView
from tenxeval_tui.widgets.reports.criteria_table import CriteriaTable
from tenxeval_tui.widgets.reports.response_diff import ResponseDiff
from tenxeval_tui.widgets.reports.simulated_conversation import SimulatedConversation
from tenxeval_tui.widgets.reports.status_text import status_text, stopped_text
from tenxeval_tui.widgets.reports.trajectory_diff import TrajectoryDiff

REPEAT_KEYS: list[BindingType] = [
    Binding("left_square_bracket", "previous_repeat", "Prev repeat", key_display="["),
    Binding("right_square_bracket", "next_repeat", "Next repeat", key_display="]"),
]
"""Stepping through a case's repeats (bound by the screens that show this view)."""
REPEAT_ACTIONS = ("previous_repeat", "next_repeat")
TRANSCRIPT_ACTION = "toggle_transcript"
TRANSCRIPT_KEY = Binding(
    "ctrl+t",
    TRANSCRIPT_ACTION,
    "Transcript",
    tooltip="The case as a transcript (messages, steps, tool calls, verdicts), or its detail",
)
"""Switching the case view between its detail and its transcript (bound by its screens)."""


def node_order_text(
    expected: list[str] | None, actual: list[str], source: str | None = None
) -> Text:
    """Expected and actual node order, the actual line marked when it differs.

    An empty expected order is no expectation (as the node-order criterion reads it);
    ``source`` names the eval set file it was read from when the report did not record it
    (no node-order criterion ran).
    """
    arrow = " → "
    text = Text()
    text.append("expected  ", style="bold")
    if expected is None:
        text.append("(not recorded)", style="dim")
    elif not expected:
        text.append("(no expectation)", style="dim")
    else:
        text.append(inert(arrow.join(expected)))
        if source is not None:
            text.append(f"   (from {inert(source)}: not checked in this run)", style="dim")
    text.append("\nactual    ", style="bold")
    same = not expected or expected == actual
    text.append(inert(arrow.join(actual)) or "(none)", style="" if same else "yellow")
    if not same:
        text.append("   differs", style="bold yellow")
    return text


def tokens_text(result: EvalCaseResult) -> Text:
    """Agent, judge and total tokens of a case."""
    total = result.token_usage
    agent = result.agent_token_usage
    judges = (
        max(total.input_tokens - agent.input_tokens, 0),
        max(total.output_tokens - agent.output_tokens, 0),
    )
    text = Text()
    for label, usage in (("agent", agent), ("judges", judges), ("total", total)):
        inp, out = (
            (usage.input_tokens, usage.output_tokens) if isinstance(usage, TokenUsage) else usage
        )
        if label != "agent":
            text.append("\n")
        text.append(f"{label:<8}", style="bold")
        text.append(f"{inp} in, {out} out, ")
        text.append(f"{inp + out} total", style="cyan")
    return text


def turns_text(turns: list[str]) -> Text:
    """The user turns, numbered."""
    if not turns:
        return Text("(not recorded in the report)", style="dim")
    text = Text()
    for i, turn in enumerate(turns, 1):
        if i > 1:
            text.append("\n")
        text.append(f"{i}. ", style="bold")
        text.append(inert(turn, multiline=True))
    return text


def repeats_text(result: EvalCaseResult, shown: int | None) -> Text:
    """The case's repeat figures and one line per repeat (``shown`` marked; ``None``: the
    case's own top level, which shows its representative repeat)."""
    text = Text()
    stats = result.repeat_stats
    if stats is not None:
        text.append(stats_label(stats), style="bold")
        text.append(
            f"\n{'▶' if shown is None else ' '} case       "
            f"the top level shows repeat #{stats.representative + 1}",
            style="reverse" if shown is None else "",
        )
    for line in repeat_lines(result):
        row = Text(f"\n{'▶' if shown == line.index else ' '} #{line.index + 1:<3} ")
        row.append_text(status_text(line.status))
        row.append(f" {line.duration:6.2f}s  ")
        row.append(
            inert(divergence_label(line.divergence)),
            style="dim" if not line.divergence or not line.divergence.diverged else "yellow",
        )
        if shown == line.index:
            row.stylize("reverse")
        text.append_text(row)
    return text


def _section(title: str, id: str) -> Static:
    return Static(Text(title, style="bold underline"), classes="case-section", id=id)


class CaseDetailView(VerticalScroll):
    """Title, error, turns, response and trajectory diffs, node order, criteria, tokens."""

    DEFAULT_CSS = """
    CaseDetailView {
        padding: 0 1;
    }
    CaseDetailView .case-section {
        margin: 1 0 0 0;
        padding: 0 1;
        color: $accent;
    }
    CaseDetailView Static {
        padding: 0 1;
    }
    CaseDetailView .titled {
        margin: 1 0 0 0;
    }
    CaseDetailView #case-sections {
        height: auto;
    }
    CaseDetailView #case-transcript {
        display: none;
        margin: 1 0 0 0;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result: EvalCaseResult | None = None
        """The case shown (its top level, with its repeats when it has them)."""
        self.baseline: EvalCaseResult | None = None
        self.repeat: int | None = None
        """The repeat shown (0-based), or ``None`` for the case's top level."""
        self._report_title = ""
        self._eval_case: EvalCase | None = None
        self._file_node_order: NodeOrderFound | None = None
        """The expected node order read from the case's eval set file, and the file."""
        self._node_orders = FileNodeOrders()
        """The eval set files' node orders, read once per version of a file."""
        self.transcript_on = False
        """The transcript shows instead of the sections (:meth:`toggle_transcript`)."""

    def compose(self) -> ComposeResult:
        # A section whose body is one widget shows its title in it (see titled).
        yield Static(id="case-title")
        yield TranscriptView(id="case-transcript")
        with Vertical(id="case-sections"):
            yield from self._sections()

    def _sections(self) -> ComposeResult:
        yield Static(id="case-repeats", classes="titled")
        yield Static(id="case-error", classes="titled")
        yield Static(id="case-turns", classes="titled")
        yield SimulatedConversation(id="case-conversation", classes="titled")
        yield _section("Response: baseline run vs this run", "baseline-response-section")
        yield ResponseDiff(id="baseline-response-diff")
        yield _section("Tool calls: baseline run vs this run", "baseline-trajectory-section")
        yield TrajectoryDiff(id="baseline-trajectory-diff")
        yield Static(id="baseline-error")
        yield _section("Response: expected vs actual", "response-section")
        yield ResponseDiff(id="response-diff")
        yield TrajectoryDiff(
            title="Tool trajectory: expected vs actual", id="trajectory-diff", classes="titled"
        )
        yield Static(id="node-order", classes="titled")
        yield CriteriaTable(title="Criteria", id="criteria-table", classes="titled")
        yield Static(id="case-tokens", classes="titled")

    def show_case(
        self,
        result: EvalCaseResult,
        *,
        report_title: str = "",
        baseline: EvalCaseResult | None = None,
        eval_case: EvalCase | None = None,
    ) -> None:
        """Fill the view with ``result`` (and ``baseline``, the same case in another run)."""
        self.result, self.baseline, self.repeat = result, baseline, None
        self._report_title, self._eval_case = report_title, eval_case
        self._file_node_order = None
        self._fill(result)

    @property
    def repeat_count(self) -> int:
        """How many repeats the case shown has (0 when it ran once)."""
        return len(self.result.repeat_results or []) if self.result is not None else 0

    @property
    def shown_run(self) -> EvalCaseResult | None:
        """The run on screen: the repeat stepped to, else the case's top level."""
        if self.result is None or self.repeat is None:
            return self.result
        return self.result.runs[self.repeat]

    def show_repeat(self, repeat: int | None) -> None:
        """Show repeat ``repeat`` (0-based) of the case, or its top level for ``None``."""
        if self.result is None or (repeat is not None and not 0 <= repeat < self.repeat_count):
            return
        self.repeat = repeat
        run = self.shown_run
        assert run is not None
        self._fill(run)

    def step_repeat(self, delta: int) -> None:
        """Step ``delta`` through the top level and the repeats, wrapping around."""
        count = self.repeat_count
        if not count:
            return
        position = 0 if self.repeat is None else self.repeat + 1  # the top level is 0
        position = (position + delta) % (count + 1)
        self.show_repeat(None if position == 0 else position - 1)

    def _show_node_order(self, run: EvalCaseResult, expected: list[str] | None) -> None:
        source = None
        if expected is None and self._file_node_order is not None:
            expected, path = self._file_node_order
            source = path.name
        update_in_place(
            self.query_one("#node-order", Static),
            titled("Node order", node_order_text(expected, run.node_visits, source)),
        )

    def look_up_expectations(self, files: Callable[[], Iterable[Path]], eval_set_id: str) -> None:
        """Where the report did not record the case's expected node order (no node-order
        criterion ran), show its eval set file's: looked up among ``files()`` in a thread.

        What the last look-up read of that file shows at once, in the frame of the case
        (no second paint of the case a moment later); the look-up then checks the files
        (each read again only when it changed) and shows what changed, if anything.
        """
        result = self.result
        if result is None or expectations_for(result, self._eval_case).node_order is not None:
            return
        known = self._node_orders.known(eval_set_id, result.eval_id)
        if known is not None:
            self._file_node_order_found(result, known)
        self._look_up_node_order(files, eval_set_id, result)

    @work(thread=True, exclusive=True, group="file-node-order")
    def _look_up_node_order(
        self, files: Callable[[], Iterable[Path]], eval_set_id: str, result: EvalCaseResult
    ) -> None:
        found = self._node_orders.find(files(), eval_set_id, result.eval_id)
        if found != self._file_node_order:  # a glance: the UI thread checks again
            self.app.call_from_thread(self._file_node_order_found, result, found)

    def _file_node_order_found(self, result: EvalCaseResult, found: NodeOrderFound | None) -> None:
        if self.result is not result or found == self._file_node_order:
            return  # another case is shown by now, or this is shown already
        self._file_node_order = found
        run = self.shown_run
        if run is not None:
            self._show_node_order(run, expectations_for(run, self._eval_case).node_order)

    def _fill(self, run: EvalCaseResult) -> None:
        result, baseline, eval_case = run, self.baseline, self._eval_case
        assert self.result is not None
        expected = expectations_for(result, eval_case)
        update_in_place(
            self.query_one("#case-title", Static),
            self._title(result, self._report_title, baseline, self.repeat, self.repeat_count),
        )
        repeats = self.query_one("#case-repeats", Static)
        repeats.display = bool(self.repeat_count)
        if self.repeat_count:
            update_in_place(
                repeats, titled("Repeats  ([ ] step)", repeats_text(self.result, self.repeat))
            )
        error = self.query_one("#case-error", Static)
        error.display = bool(result.error)
        update_in_place(
            error, titled("Error", Text(inert(result.error or "", multiline=True), "magenta"))
        )
        update_in_place(
            self.query_one("#case-turns", Static),
            titled("Turns", turns_text(expected.turns or user_turns(result))),
        )
        self.query_one(SimulatedConversation).show_result(result)
        self._show_baseline(result, baseline)
        self.query_one("#response-diff", ResponseDiff).show_texts(
            "Expected", expected.response, "Actual", result.actual_response
        )
        self.query_one("#trajectory-diff", TrajectoryDiff).show_calls(
            expected.tool_calls,
            result.actual_tool_calls,
            check_args=expected.check_args,
            match_type=expected.match_type,
            ignore_args=expected.ignore_args,
        )
        self._show_node_order(result, expected.node_order)
        self.query_one("#criteria-table", CriteriaTable).show_results(
            result.criterion_results, baseline.criterion_results if baseline else None
        )
        update_in_place(
            self.query_one("#case-tokens", Static), titled("Tokens", tokens_text(result))
        )
        if self.transcript_on:
            self._show_transcript()
        self.scroll_home(animate=False)

    def toggle_transcript(self) -> None:
        """Show the case as a transcript instead of its sections, or the sections again."""
        self.transcript_on = not self.transcript_on
        self.query_one("#case-sections").display = not self.transcript_on
        self.query_one("#case-transcript").display = self.transcript_on
        if self.transcript_on:
            self._show_transcript()
        self.scroll_home(animate=False)

    def _show_transcript(self) -> None:
        run = self.shown_run
        if run is None:
            return
        expected = expectations_for(run, self._eval_case).response
        self.query_one(TranscriptView).show(result_transcript(run, expected))

    def _show_baseline(self, result: EvalCaseResult, baseline: EvalCaseResult | None) -> None:
        for widget_id in (
            "#baseline-response-section",
            "#baseline-response-diff",
            "#baseline-trajectory-section",
            "#baseline-trajectory-diff",
        ):
            self.query_one(widget_id).display = baseline is not None
        error = self.query_one("#baseline-error", Static)
        error.display = bool(baseline and baseline.error)
        if baseline is None:
            return
        self.query_one("#baseline-response-diff", ResponseDiff).show_texts(
            f"Baseline ({baseline.status})",
            baseline.actual_response,
            f"This run ({result.status})",
            result.actual_response,
        )
        self.query_one("#baseline-trajectory-diff", TrajectoryDiff).show_calls(
            baseline.actual_tool_calls,
            result.actual_tool_calls,
            ("Baseline", "This run"),
            literal=True,
        )
        error.update(
            Text.assemble(
                ("Baseline error: ", "bold"),
                (inert(baseline.error or "", multiline=True), "magenta"),
            )
        )

    @staticmethod
    def _title(
        result: EvalCaseResult,
        report_title: str,
        baseline: EvalCaseResult | None,
        repeat: int | None = None,
        repeats: int = 0,
    ) -> Text:
        stopped = bool(result.metadata.get(STOPPED_EARLY_KEY))
        title = Text.assemble(
            status_text(result.status, stopped_early=stopped), " ", (inert(result.eval_id), "bold")
        )
        if result.name and result.name != result.eval_id:
            title.append(f"  {inert(result.name)}")
        if repeat is not None:
            title.append(f"   repeat {repeat + 1} of {repeats}", style="bold cyan")
        elif result.repeat_stats is not None:
            rs = result.repeat_stats
            title.append(f"   {rs.passed_repeats}/{rs.repeats} repeats passed", style="cyan")
        if stopped:
            title.append("   ").append_text(stopped_text())
        title.append(f"\n{result.duration_seconds:.2f}s", style="cyan")
        if report_title:
            title.append(f"   in {inert(report_title)}", style="dim")
        if baseline is not None:
            title.append("   baseline: ", style="dim")
            title.append_text(status_text(baseline.status))
        return title
