"""Console reporter: a rich summary of a run for the terminal (or a plain log)."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tenxeval_tui.evaluation.cost import format_cost
from tenxeval_tui.evaluation.eval_result import (
    NOT_RUN_KEY,
    RETRIED_KEY,
    STOPPED_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.reporters.base import BaseReporter

_STATUS_STYLE = {"passed": "green", "failed": "red", "error": "yellow"}
_STATUS_LABEL = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}
PREVIEW_CHARS = 300
_BLOCK_LINES = 200

Line = list[tuple[str, str]]  # one output line as (text, rich style) segments


def _clean(text: str) -> str:
    # Agent and eval-set text must not drive the terminal or a log viewer: controls show.
    return inert(text)


def _preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    flat = _clean(" ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


_ANSI: dict[str, str] = {
    "RESET": "\033[0m",
    "BOLD": "\033[1m",
    "DIM": "\033[2m",
    "RED": "\033[91m",
    "GREEN": "\033[92m",
    "YELLOW": "\033[93m",
    "BLUE": "\033[94m",
    "MAGENTA": "\033[95m",
    "CYAN": "\033[96m",
    "WHITE": "\033[97m",
    "BG_RED": "\033[41m",
    "BG_GREEN": "\033[42m",
}


class Colors:
    """10xGraph's ANSI colour codes, for users who colour their own output.

    :meth:`disable` blanks every code and turns colour off in every
    :class:`ConsoleReporter` from then on (process-wide, as in 10xGraph;
    ``ConsoleReporter(use_color=False)`` is the per-reporter switch).
    """

    RESET = _ANSI["RESET"]
    BOLD = _ANSI["BOLD"]
    DIM = _ANSI["DIM"]
    RED = _ANSI["RED"]
    GREEN = _ANSI["GREEN"]
    YELLOW = _ANSI["YELLOW"]
    BLUE = _ANSI["BLUE"]
    MAGENTA = _ANSI["MAGENTA"]
    CYAN = _ANSI["CYAN"]
    WHITE = _ANSI["WHITE"]
    BG_RED = _ANSI["BG_RED"]
    BG_GREEN = _ANSI["BG_GREEN"]

    @classmethod
    def disable(cls) -> None:
        """Blank every code and turn colour off in all console reports."""
        for name in _ANSI:
            setattr(cls, name, "")

    @classmethod
    def enabled(cls) -> bool:
        """Whether :meth:`disable` has not been called."""
        return bool(cls.RESET)


def run_times(wall_seconds: float | None, case_seconds: float) -> str:
    """``wall 12.3s, case time 98.0s``: how long the run took, and the sum of its cases'
    times (more than the wall time when cases ran side by side); the case time alone when
    the wall time was not recorded."""
    case_time = f"case time {case_seconds:.1f}s"
    return case_time if wall_seconds is None else f"wall {wall_seconds:.1f}s, {case_time}"


class ConsoleReporter(BaseReporter):
    """Prints a run's summary, per-criterion figures and its cases.

    Failed and errored cases are always listed with the criteria that failed,
    their scores and thresholds and the judge's reason; ``verbose`` lists every
    case with every criterion. Colour follows the terminal: none when
    ``use_color`` is False, when the ``NO_COLOR`` environment variable is set, or
    when the output is not a terminal (a pipe, a CI log file).
    """

    extension = ".txt"

    def __init__(
        self,
        use_color: bool = True,
        verbose: bool = False,
        output: TextIO | None = None,
        include_trajectory: bool = True,
        include_actual_response: bool = True,
        file: TextIO | None = None,
        width: int | None = None,
        *,
        verdict: bool = True,
    ) -> None:
        """``output`` (10xGraph's name) and ``file`` both name the stream written to
        (``file`` wins when both are given; stdout by default). ``verdict=False`` leaves out
        the last line (``PASSED``/``FAILED``/``INCOMPLETE``), for a caller that prints its
        own (``tenxeval-tui run``'s summary line)."""
        self.verdict = verdict
        self.use_color = use_color
        self.verbose = verbose
        self.include_trajectory = include_trajectory
        self.include_actual_response = include_actual_response
        self.file = file if file is not None else output
        self.width = width

    def _console(self, file: TextIO) -> Console:
        # no_color=None lets rich honour NO_COLOR; a non-terminal file gets no styling.
        color = self.use_color and Colors.enabled()
        return Console(
            file=file,
            no_color=None if color else True,
            color_system="auto" if color else None,
            highlight=False,
            emoji=False,
            width=self.width,
            soft_wrap=False,
        )

    def generate(self, report: EvalReport, output_dir: str | Path | None = None) -> None:
        """Print the report (``output_dir`` is ignored; the console writes no file)."""
        self.print(report)

    def report(self, report: EvalReport) -> None:
        """Print the report (10xGraph's name for :meth:`generate`)."""
        self.print(report)

    def print(self, report: EvalReport) -> None:
        """Print the report to ``file`` (default: the current ``sys.stdout``)."""
        self._write(self._console(self.file or sys.stdout), report)

    def render(self, report: EvalReport) -> str:
        """The console text without colour codes."""
        buffer = io.StringIO()
        console = Console(
            file=buffer, no_color=True, color_system=None, width=self.width or 100, emoji=False
        )
        self._write(console, report)
        return buffer.getvalue()

    def _write(self, console: Console, report: EvalReport) -> None:
        s = report.summary
        title = _clean(report.eval_set_name or report.eval_set_id)
        heading = Text.assemble(("Evaluation: ", "bold"), (title, "bold cyan"))
        if report.eval_set_name and report.eval_set_id != report.eval_set_name:
            heading.append(f" ({_clean(report.eval_set_id)})", style="dim")
        if report.is_partial:
            heading.append("  [partial run]", style="yellow")
        stopped = report.metadata.get(STOPPED_KEY)
        if stopped:
            not_run = len(report.metadata.get(NOT_RUN_KEY) or [])
            heading.append(f" stopped by {_clean(str(stopped))}: {not_run} not run", "yellow")
        console.rule(heading)
        console.print(
            Text.assemble(
                f"{s.total_cases} cases: ",
                (f"{s.passed_cases} passed", "green"),
                ", ",
                (f"{s.failed_cases} failed", "red" if s.failed_cases else ""),
                ", ",
                (f"{s.error_cases} errored", "yellow" if s.error_cases else ""),
                "   pass rate ",
                (f"{s.pass_rate:.1%}", "bold green" if report.passed else "bold red"),
                f"   {run_times(s.wall_seconds, s.total_duration_seconds)}",
                f"   {s.total_token_usage.total_tokens} tokens",
                f"   {format_cost(s.total_cost_usd)}" if s.total_cost_usd is not None else "",
            )
        )
        if s.repeat_stats is not None:
            rs = s.repeat_stats
            console.print(
                Text.assemble(
                    "repeats: ",
                    (f"{rs.passed_repeats}/{rs.total_repeats} runs passed", "bold"),
                    f" ({rs.repeat_pass_rate:.1%})",
                    f"   pass rate 95% interval {rs.pass_rate_low:.1%} to {rs.pass_rate_high:.1%}",
                    "   ",
                    (f"{rs.flaky_cases} flaky", "yellow" if rs.flaky_cases else ""),
                    f" ({rs.total_flips} flips)",
                )
            )
        retried = [r for r in report.results if r.metadata.get(RETRIED_KEY)]
        if retried:
            # A worker died while these ran: each ran once more (kept once in the figures).
            console.print(
                Text(
                    f"retried after a worker died: {len(retried)} case(s): "
                    + ", ".join(
                        f"{_clean(r.eval_id)} ({_clean(str(r.metadata[RETRIED_KEY]))})"
                        for r in retried
                    ),
                    style="yellow",
                )
            )
        if s.criterion_stats:
            table = Table(title=None, show_edge=False, pad_edge=False, box=None)
            table.add_column("criterion")
            table.add_column("avg score", justify="right")
            table.add_column("passed", justify="right")
            table.add_column("pass rate", justify="right")
            for name, st in s.criterion_stats.items():
                rate = float(st.get("pass_rate", 0.0))
                table.add_row(
                    Text(_clean(name)),
                    f"{float(st.get('avg_score', 0.0)):.2f}",
                    f"{st.get('passed', 0)}/{st.get('total', 0)}",
                    Text(f"{rate:.0%}", style="green" if rate >= 1.0 else "red"),
                )
            console.print(table)

        shown = report.results if self.verbose else report.failed_cases
        if shown:
            console.print()
            console.print(Text("All cases:" if self.verbose else "Failed cases:", style="bold"))
            self._write_cases(console, shown)
        console.print()
        if self.verdict:
            self._write_verdict(console, report)

    def _write_verdict(self, console: Console, report: EvalReport) -> None:
        s = report.summary
        stopped_early = report.is_partial or bool(report.metadata.get(STOPPED_KEY))
        if report.passed and stopped_early:
            # Every case that ran passed, but not every case ran: no green verdict.
            not_run = len(report.metadata.get(NOT_RUN_KEY) or [])
            rest = f"; {not_run} not run" if not_run else ""
            console.print(
                Text(
                    f"INCOMPLETE: the {s.total_cases} cases that ran passed{rest}",
                    style="bold yellow",
                )
            )
        elif report.passed:
            console.print(Text("PASSED: every case passed", style="bold green"))
        else:
            not_passed = s.failed_cases + s.error_cases
            console.print(
                Text(
                    f"FAILED: {not_passed} of {s.total_cases} cases did not pass", style="bold red"
                )
            )

    def _write_cases(self, console: Console, results: list[EvalCaseResult]) -> None:
        """The case listing; plain text goes straight to the file when there is no styling.

        rich costs about half a millisecond a line, which a verbose 5,000-case run
        (tens of thousands of lines into a CI log) would feel; unstyled output
        needs none of it.
        """
        plain = console.no_color or console.color_system is None
        block: list[Line] = []
        for result in results:
            block.extend(self._case_lines(result))
            if len(block) >= _BLOCK_LINES:
                self._flush(console, block, plain)
                block = []
        if block:
            self._flush(console, block, plain)

    @staticmethod
    def _flush(console: Console, block: list[Line], plain: bool) -> None:
        if plain:
            console.file.write("\n".join("".join(text for text, _ in line) for line in block))
            console.file.write("\n")
        else:
            console.print(Text("\n").join(Text.assemble(*line) for line in block), soft_wrap=True)

    def _case_lines(self, result: EvalCaseResult) -> list[Line]:
        status = result.status
        head: Line = [
            (f"  {_STATUS_LABEL[status]:<5} ", f"bold {_STATUS_STYLE[status]}"),
            (_clean(result.name or result.eval_id), ""),
        ]
        if result.name and result.name != result.eval_id:
            head.append((f" [{_clean(result.eval_id)}]", "dim"))
        if result.repeat_stats is not None:
            rs = result.repeat_stats
            head.append(
                (
                    f"  {rs.passed_repeats}/{rs.repeats} runs passed",
                    "yellow" if rs.is_flaky else "",
                )
            )
        head.append((f"  {result.duration_seconds:.2f}s", "dim"))
        if result.cost_usd is not None:
            head.append((f"  {format_cost(result.cost_usd)}", "dim"))
        lines = [head]
        if result.error:
            lines.append([(f"        error: {_preview(result.error)}", "yellow")])
        criteria = result.criterion_results if self.verbose else result.failed_criteria
        for cr in criteria:
            lines.append(
                [
                    ("        ", ""),
                    (_clean(cr.criterion), "bold"),
                    (f" {cr.score:.2f} ", ""),
                    ("ok", "green") if cr.passed else ("below", "red"),
                    (f" threshold {cr.threshold:.2f}", ""),
                    (f"  {format_cost(cr.cost_usd)}" if cr.cost_usd is not None else "", "dim"),
                ]
            )
            if cr.error:
                lines.append([(f"          error: {_preview(cr.error)}", "yellow")])
            if cr.reason:
                lines.extend(_reason_lines(cr.reason))
        if self.include_actual_response and result.actual_response and not result.passed:
            lines.append([(f"        response: {_preview(result.actual_response)}", "")])
        if self.include_trajectory and result.actual_tool_calls and not result.passed:
            tools = " -> ".join(call.name for call in result.actual_tool_calls)
            lines.append([(f"        tools: {_preview(tools)}", "dim")])
        return lines


REASON_LINES = 6
"""Lines of a criterion's reason the console shows (a trajectory's says one per mismatch)."""


def _reason_lines(reason: str) -> list[list[tuple[str, str]]]:
    """``reason: <first line>``, then its next lines indented below (at most
    :data:`REASON_LINES` in all, each cut to a preview)."""
    parts = [line for line in reason.splitlines() if line.strip()] or [reason]
    shown = [[(f"          reason: {_preview(parts[0])}", "dim")]]
    shown += [[(f"            {_preview(line)}", "dim")] for line in parts[1:REASON_LINES]]
    if len(parts) > REASON_LINES:
        shown.append([(f"            ... ({len(parts) - REASON_LINES} more lines)", "dim")])
    return shown


def print_report(report: EvalReport, verbose: bool = False, use_color: bool = True) -> None:
    """Print ``report`` to stdout: summary, criteria, and failed cases (all cases when verbose)."""
    ConsoleReporter(use_color=use_color, verbose=verbose).print(report)
