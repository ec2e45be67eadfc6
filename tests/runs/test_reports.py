"""Writing a run's reports: one function for the worker, `run` and the journal recovery."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.results.journal import RunJournal
from tenxeval_tui.runs.reports import journal_reports, marked_partial, write_reports


def report(set_id: str) -> EvalReport:
    result = EvalCaseResult(eval_id="a", passed=True, metadata={"eval_set_id": set_id})
    return EvalReport.create(eval_set_id=set_id, results=[result])


def test_every_report_is_written_and_the_html_listed(tmp_path: Path) -> None:
    reporter = ReporterConfig(output_dir=str(tmp_path), html=True, junit_xml=True)
    written = write_reports([report("one"), report("two")], reporter, console=False)
    assert not written.errors
    assert len(written.files) == 6 and all(Path(f).is_file() for f in written.files)
    assert [Path(h).suffix for h in written.html] == [".html", ".html"]


def test_disabled_reporters_write_nothing_and_failures_are_told(tmp_path: Path) -> None:
    off = ReporterConfig(output_dir=str(tmp_path), enabled=False)
    assert write_reports([report("one")], off).files == []
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    written = write_reports([report("one")], ReporterConfig(output_dir=str(blocked)))
    assert written.errors and not written.files


def test_marked_partial_and_the_reports_a_journal_kept(tmp_path: Path) -> None:
    assert marked_partial(report("one")).is_partial
    partial = marked_partial(report("one"))
    assert marked_partial(partial) is partial
    journal = RunJournal(tmp_path / "j.jsonl")
    case = EvalCase.single_turn("a", "q", "r")
    journal.on_run_start(EvalSet(eval_set_id="one", eval_cases=[case]), [case])
    journal.on_case_end(EvalCaseResult(eval_id="a", passed=True, metadata={"eval_set_id": "one"}))
    (kept,) = journal_reports(tmp_path / "j.jsonl")
    assert kept.is_partial and [r.eval_id for r in kept.results] == ["a"]


def test_a_journal_and_a_combined_report_keep_a_max_cost_stop(tmp_path: Path) -> None:
    stopped = {"partial": True, "stopped_by": "max_cost", "not_run": ["b", "c"]}
    journal = RunJournal(tmp_path / "j.jsonl")
    cases = [EvalCase.single_turn(i, "q", "r") for i in "abc"]
    journal.on_run_start(EvalSet(eval_set_id="one", eval_cases=cases), cases)
    journal.on_case_end(EvalCaseResult(eval_id="a", passed=True, metadata={"eval_set_id": "one"}))
    journal.on_run_end(report("one").model_copy(update={"metadata": stopped}))
    (kept,) = journal_reports(tmp_path / "j.jsonl")
    assert kept.metadata == stopped
    combined = EvalReport.combine([kept, report("two")])
    assert combined.is_partial
    assert (combined.metadata["stopped_by"], combined.metadata["not_run"]) == (
        "max_cost",
        ["b", "c"],
    )
    assert "stopped_by" not in EvalReport.combine([report("one"), report("two")]).metadata
