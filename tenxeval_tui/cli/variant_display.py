"""How ``tenxeval-tui run`` shows a run of several variants: a line per finished case
and notes, each after its variant's name (the variants run at once, from threads: one
lock keeps their lines whole), each variant's summary line, then the matrix
(:func:`~tenxeval_tui.evaluation.analysis.matrix_text.format_matrix`), its files and the verdict.
Every line goes through :func:`~tenxeval_tui.evaluation.inert.inert`.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.cli.logs import write_stderr_line
from tenxeval_tui.cli.run_display import PROGRAM, summary_line
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.observers import RunObserver

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.runs.outcome import Published
    from tenxeval_tui.runs.variant_session import VariantOutcome

_LOCK = threading.Lock()


def _say(text: str, *, err: bool = False) -> None:
    with _LOCK:
        print(inert(text, multiline=True), file=sys.stderr if err else sys.stdout, flush=True)


class _VariantLines(RunObserver):
    """``[variant] [k/N] PASS set/case (0.01s)`` as each case ends (nothing when quiet)."""

    def __init__(self, name: str, total: int, quiet: bool) -> None:
        self.name, self.total, self.quiet = name, total, quiet
        self.done = 0

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.done += 1
        if self.quiet:
            return
        status = "ERROR" if result.is_error else "PASS" if result.passed else "FAIL"
        where = f"{result.eval_set_id}/{result.eval_id}" if result.eval_set_id else result.eval_id
        _say(
            f"[{self.name}] [{self.done}/{self.total}] {status:<5} {where} "
            f"({result.duration_seconds:.2f}s)"
        )


class VariantConsoleDisplay:
    """One variant's :class:`~tenxeval_tui.runs.display.RunDisplay` on the console."""

    def __init__(self, name: str, *, quiet: bool = False) -> None:
        self.name = name
        self.quiet = quiet

    @property
    def child_stderr(self) -> Callable[[str], None] | None:
        """Each line the variant's worker writes on stderr, after its name."""
        return lambda line: write_stderr_line(f"[{self.name}] {line}")

    def note(self, text: str) -> None:
        """On stdout, after the variant's name."""
        _say(f"[{self.name}] {text}")

    def notice(self, text: str) -> None:
        """On stderr, after the variant's name."""
        _say(f"[{self.name}] {text}", err=True)

    def warning(self, text: str) -> None:
        """On stderr, after the program's and the variant's names."""
        _say(f"{PROGRAM}: [{self.name}] {text}", err=True)

    @contextmanager
    def progress(self, total: int) -> Iterator[Sequence[RunObserver]]:
        """A line per finished case."""
        yield [_VariantLines(self.name, total, self.quiet)]

    def published(self, published: Published, config: EvalConfig) -> None:
        """The files that failed, the files written (unless quiet), the summary line."""
        for name, message in published.errors:
            _say(f"[{self.name}] report {name} failed: {message}", err=True)
        if not self.quiet:
            for path in published.files:
                _say(f"[{self.name}] wrote {path}")
        _say(f"[{self.name}] {summary_line(published)}")

    def journal_kept(self, journal: Path, *, resumable: bool) -> None:
        """Nothing: the variant run says once where its journals are."""


def show_variants_outcome(
    outcome: VariantOutcome, output_dir: Path, argv: Sequence[str], *, quiet: bool
) -> None:
    """The matrix (unless quiet), its files, the journals kept, the verdict line."""
    from tenxeval_tui.evaluation.analysis.matrix_text import format_matrix
    from tenxeval_tui.runs.resume import resume_command

    if outcome.matrix is not None and not quiet:
        _say(format_matrix(outcome.matrix, outcome.baseline))
        for path in outcome.files:
            _say(f"wrote {path}")
    if outcome.journals:
        _say(f"the variants' journals are kept in {output_dir}", err=True)
        _say(f"resume them with: {resume_command(argv, output_dir)}", err=True)
    _say(verdict_line(outcome))


def verdict_line(outcome: VariantOutcome) -> str:
    """``PASSED: ...`` or ``FAILED: ...``: the variants' verdict by the exit rule."""
    from tenxeval_tui.runs.outcome import EXIT_INTERRUPTED, EXIT_OK

    count = len(outcome.outcomes)
    if outcome.exit_code == EXIT_INTERRUPTED:
        return f"INTERRUPTED: {count} variants; the reports are partial"
    verdict = "PASSED" if outcome.exit_code == EXIT_OK else "FAILED"
    if outcome.baseline is not None:
        worse = outcome.worse
        why = (
            f"significantly worse than {outcome.baseline}: {', '.join(worse)}"
            if worse
            else f"no variant significantly worse than {outcome.baseline}"
        )
        if not worse and outcome.exit_code != EXIT_OK:
            why = "a variant's run wrote no report"
        return f"{verdict}: {count} variants; {why}"
    failing = [n for n, o in outcome.outcomes.items() if o.exit_code != EXIT_OK]
    return f"{verdict}: {count} variants; " + (
        f"not passing: {', '.join(failing)}" if failing else "every variant passed"
    )


__all__ = ["VariantConsoleDisplay", "show_variants_outcome", "verdict_line"]
