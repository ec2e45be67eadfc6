"""Progress of headless runs: plain lines (CI) and the rich bar (terminal)."""

from __future__ import annotations

import io

from rich.console import Console

from tenxeval_tui.cli.progress import BarProgress, LineProgress
from tenxeval_tui.evaluation import CriterionResult, EvalCase, EvalCaseResult


def results() -> list[EvalCaseResult]:
    failed = CriterionResult(criterion="rouge_match", score=0.25, passed=False, threshold=0.5)
    meta = {"eval_set_id": "weather"}
    return [
        EvalCaseResult(eval_id="a", passed=True, duration_seconds=0.5, metadata=meta),
        EvalCaseResult(eval_id="b", passed=False, criterion_results=[failed], metadata=meta),
        EvalCaseResult(eval_id="c", passed=False, error="RuntimeError: boom", metadata=meta),
    ]


def test_line_progress_prints_one_line_per_case() -> None:
    stream = io.StringIO()
    with LineProgress(3, stream=stream) as progress:
        for result in results():
            progress.on_case_end(result)
    assert stream.getvalue().splitlines() == [
        "[1/3] PASS  weather/a (0.50s)",
        "[2/3] FAIL  weather/b (0.00s): rouge_match 0.25 < 0.50",
        "[3/3] ERROR weather/c (0.00s): RuntimeError: boom",
    ]
    quiet = io.StringIO()
    silent = LineProgress(3, quiet=True, stream=quiet)
    for result in results():
        silent.on_case_end(result)
    assert quiet.getvalue() == "" and silent.counts.done == 3


def test_bar_progress_counts_passes_failures_and_errors() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    with BarProgress(3, console=console) as progress:
        for result in results():
            progress.on_case_start("weather", EvalCase(eval_id=result.eval_id))
            progress.on_case_end(result)
    text = out.getvalue()
    assert "3/3" in text
    assert "1 passed 1 failed 1 errored" in text
    assert "weather/c" in text
