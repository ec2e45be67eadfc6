"""How ``tenxeval-tui run`` shows a run session: the :class:`~tenxeval_tui.runs.display.RunDisplay`
of the command line.

Notes on stdout, problems on stderr, a progress bar (or lines) per pass, then the report,
the files written and the summary line (``PASSED:``/``FAILED:``). Text from eval sets and
agents is untrusted: every line goes through :func:`~tenxeval_tui.evaluation.inert.inert`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.cli.colour import colour_wanted
from tenxeval_tui.cli.logs import configure_logging, write_stderr_line
from tenxeval_tui.evaluation.inert import inert

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.observers import RunObserver
    from tenxeval_tui.runs.outcome import Published

PROGRAM = "tenxeval-tui run"


@dataclass(frozen=True)
class ConsoleDisplay:
    """The run shown on this process's stdout and stderr.

    ``quiet``: no progress lines, no report, only the summary line; ``verbose``: every
    case's criteria; ``open_html``: the HTML report opened in a browser once written;
    ``log_level``: this process's log records shown from that level up while a pass runs
    (see :func:`~tenxeval_tui.cli.logs.configure_logging`).
    """

    quiet: bool = False
    verbose: bool = False
    open_html: bool = False
    log_level: str | None = None
    child_stderr: Callable[[str], None] | None = write_stderr_line

    def note(self, text: str) -> None:
        """On stdout."""
        print(inert(text), flush=True)

    def notice(self, text: str) -> None:
        """On stderr."""
        print(inert(text), file=sys.stderr)

    def warning(self, text: str) -> None:
        """On stderr, after the program's name."""
        print(inert(f"{PROGRAM}: {text}"), file=sys.stderr)

    @contextmanager
    def progress(self, total: int) -> Iterator[Sequence[RunObserver]]:
        """A bar on a terminal, else a line per case (none when quiet)."""
        from tenxeval_tui.cli.progress import make_progress

        configure_logging(self.log_level)
        with make_progress(total, quiet=self.quiet) as progress:
            yield [progress]

    def published(self, published: Published, config: EvalConfig) -> None:
        """The files that failed, the report (unless quiet), the files written, the summary
        line, then why the run stopped early."""
        from tenxeval_tui.evaluation.eval_result import NOT_RUN_KEY, STOPPED_KEY
        from tenxeval_tui.evaluation.judges.usage import USAGE_ESTIMATED_KEY, usage_warning
        from tenxeval_tui.evaluation.results.journal_results import none_holds

        report = published.report
        for name, message in published.errors:
            print(inert(f"report {name} failed: {message}", multiline=True), file=sys.stderr)
        if not self.quiet:
            # lazy: rich (the console report) only when the report is printed
            from tenxeval_tui.evaluation.reporters.console import ConsoleReporter

            # without its verdict line: the summary line below is the one verdict
            ConsoleReporter(
                use_color=colour_wanted(sys.stdout), verbose=self.verbose, verdict=False
            ).print(report)
            for line in reused_lines(report):
                print(inert(line))
            for path in published.files:
                print(inert(f"wrote {path}"))
        print(summary_line(published))
        estimated = None
        if not none_holds(report.results, detail=USAGE_ESTIMATED_KEY):  # not read again
            estimated = usage_warning([report])
        if estimated is not None:
            print(inert(estimated), file=sys.stderr)
        if report.metadata.get(STOPPED_KEY):
            not_run = len(report.metadata.get(NOT_RUN_KEY) or [])
            by = str(report.metadata[STOPPED_KEY])
            if by == "max_cost" and config.max_cost is not None:
                by = f"--max-cost ${config.max_cost:g}"
            self.notice(f"stopped by {by}: {not_run} case(s) not run; the report is partial")
        if published.errors:
            print("FAILED: some report files were not written (see above)", file=sys.stderr)
        if self.open_html:
            self.open_report(published.html)

    def open_report(self, html_files: Sequence[str]) -> None:
        """``--open``: the first HTML report in the browser; on stderr (even when quiet)
        why not when there is no browser at hand or no HTML report was written."""
        if not html_files:  # --no-html, the config's reporter html off, or its writer failed
            self.warning("--open: no HTML report was written (--no-html?): there is none to open")
            return
        import webbrowser

        html = Path(html_files[0]).resolve()
        if not webbrowser.open(html.as_uri()):  # no browser here (an ssh session, a server)
            self.warning(f"--open: no browser to open it in here; the HTML report is {html}")

    def journal_kept(self, journal: Path, *, resumable: bool) -> None:
        """Where the journal is, and (``resumable``) the command that runs the rest."""
        from tenxeval_tui.runs.resume import resume_command

        print(f"the run's journal is kept: {journal}", file=sys.stderr)
        if resumable:  # what did not finish can run later, into one complete report
            print(f"resume it with: {resume_command(sys.argv[1:], journal)}", file=sys.stderr)


def summary_line(published: Published) -> str:
    """``PASSED: 3/3 passed, 0 failed, 0 errored, pass rate 100.0% (threshold 100.0%)``,
    with the runs of repeated cases, the cases retried and the cost when there are.

    The verdict is ``PASSED`` only for a complete report that passes; an incomplete one
    (partial, stopped early) whose cases that ran all passed is ``INCOMPLETE``, and says why.
    """
    s = published.report.summary
    verdict = "PASSED" if published.passed else "FAILED"
    if published.incomplete is not None and published.report.passed:
        verdict = "INCOMPLETE"
    rates = ""
    if s.repeat_stats is not None:
        rs = s.repeat_stats
        rates = f", {rs.passed_repeats}/{rs.total_repeats} runs passed ({rs.repeat_pass_rate:.1%})"
    cost = f", cost ${s.total_cost_usd:.4f}" if s.total_cost_usd is not None else ""
    again = f", {published.retried} retried" if published.retried else ""
    reused = f", {published.reused} reused" if published.reused else ""
    return (
        f"{verdict}: {s.passed_cases}/{s.total_cases} passed, {s.failed_cases} failed, "
        f"{s.error_cases} errored{again}{reused}, pass rate {s.pass_rate:.1%} "
        f"(threshold {published.threshold:.1%}){rates}{cost}"
        + (f"; partial: {published.incomplete}" if published.incomplete is not None else "")
    )


def reused_lines(report: EvalReport) -> list[str]:
    """``↺ CASE reused from REPORT`` for each result ``--reuse`` took from an earlier report."""
    from tenxeval_tui.evaluation.results.journal_results import none_holds
    from tenxeval_tui.runs.reuse import REUSED_FROM_KEY

    if none_holds(report.results, metadata=REUSED_FROM_KEY):  # not read again
        return []
    return [
        f"↺ {r.eval_id} reused from {r.metadata[REUSED_FROM_KEY]}"
        for r in report.results
        if r.metadata.get(REUSED_FROM_KEY)
    ]


__all__ = ["ConsoleDisplay", "reused_lines", "summary_line"]
