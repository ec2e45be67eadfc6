"""Brief ``case_end`` lines (``RunPlan.case_end``): ``run``'s progress reads a result's
verdict only, and its worker sends no more; every other reader gets the lean line."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest

from tenxeval_tui.cli.progress import BarProgress, LineProgress
from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.observers import RunObserver, replay_json_lines
from tenxeval_tui.runs.brief_results import BRIEF_RESULT, reads_brief_results
from tenxeval_tui.runs.child_run import run_in_child
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.worker import LeanJsonLinesObserver
from tests.runs.test_case_end_line import hostile


def result_of(kind: str) -> EvalCaseResult:
    """A passed, failed or errored result with everything a case can hold."""
    result = hostile("caf\u00e9 \u2028")
    result.metadata["eval_set_id"] = "s\u00e9t"
    result.repeat_results = None
    result.repeat_stats = None
    result.passed = kind == "passed"
    result.error = "boom: \u00e9" if kind == "error" else None
    result.criterion_results[0].passed = kind == "passed"
    return result


def lines_of(result: EvalCaseResult, *, brief: bool) -> str:
    written: list[str] = []
    LeanJsonLinesObserver(written.append, brief=brief).on_case_end(result)
    [line] = written
    return line


def progress_of(line: str) -> str:
    """What ``run``'s progress prints of a case read from ``line``."""
    out = io.StringIO()
    assert replay_json_lines([line], LineProgress(1, stream=out)) == 1
    return out.getvalue()


@pytest.mark.parametrize("kind", ["passed", "failed", "error"])
def test_a_brief_line_shows_the_same_progress_and_holds_only_the_verdict(kind: str) -> None:
    result = result_of(kind)
    brief, lean = lines_of(result, brief=True), lines_of(result, brief=False)
    assert progress_of(brief) == progress_of(lean)
    assert kind.upper()[:4] in progress_of(brief)
    held = json.loads(brief)["result"]
    assert set(held) == set(BRIEF_RESULT)
    assert held["metadata"] == {"eval_set_id": "s\u00e9t"}
    criterion = {"criterion", "score", "passed", "threshold", "error"}
    assert set(held["criterion_results"][0]) == criterion
    assert brief.isascii() and len(brief) < len(lean) / 2


@pytest.mark.parametrize("value", [math.nan, math.inf])
@pytest.mark.parametrize("where", ["duration", "score", "threshold"])
def test_a_non_finite_float_or_a_lone_surrogate_gets_the_lean_line(
    where: str, value: float
) -> None:
    result = result_of("failed")
    if where == "duration":
        result.duration_seconds = value
    else:
        setattr(result.criterion_results[0], where, value)
    assert lines_of(result, brief=True) == lines_of(result, brief=False)
    broken = result_of("error")
    broken.error = "bad \ud83d"
    assert lines_of(broken, brief=True) == lines_of(broken, brief=False)


def test_after_the_journal_failed_every_line_is_lean() -> None:
    result = result_of("passed")
    written: list[str] = []
    stream = LeanJsonLinesObserver(written.append, brief=True)
    stream.on_case_end(result)
    stream.journal_failed()
    stream.on_case_end(result)
    assert written[0] == lines_of(result, brief=True)
    assert written[1] == lines_of(result, brief=False)


def test_brief_lines_only_when_every_observer_reads_no_more() -> None:
    assert reads_brief_results([LineProgress(1, quiet=True), LineProgress(1)])
    assert BarProgress.reads_brief_results is True
    assert not reads_brief_results([LineProgress(1), RunObserver()])


class Verdicts(RunObserver):
    """A follower that reads verdicts only, and says so."""

    reads_brief_results = True

    def __init__(self) -> None:
        self.results: list[EvalCaseResult] = []

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.results.append(result)


def test_a_run_whose_followers_read_verdicts_gets_brief_lines_and_whole_reports(
    tmp_path: Path,
) -> None:
    (tmp_path / "echo.py").write_text(
        "async def agent(message, trace):\n"
        "    trace.node('MAIN', response=message)\n"
        "    return 'no' if message == 'm1' else message\n"
    )
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(3)]
    EvalSet(eval_set_id="e", eval_cases=cases).to_file(tmp_path / "e.evalset.json")
    plan = RunPlan(
        agent="echo:agent",
        eval_sets=[tmp_path / "e.evalset.json"],
        concurrency=1,
        output_dir=tmp_path / "out",
        search_path=tmp_path,
    )
    verdicts, out = Verdicts(), io.StringIO()
    child = run_in_child(plan, [verdicts, LineProgress(3, stream=out)])
    assert child.finished, child
    assert [(r.eval_id, r.passed, r.eval_set_id) for r in verdicts.results] == [
        ("c0", True, "e"),
        ("c1", False, "e"),
        ("c2", True, "e"),
    ]
    assert all(r.actual_response == "" and not r.turn_results for r in verdicts.results)
    assert "[2/3] FAIL  e/c1" in out.getvalue()
    [report] = child.reports
    assert [r.actual_response for r in report.results] == ["m0", "no", "m2"]
