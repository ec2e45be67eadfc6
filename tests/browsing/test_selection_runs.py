"""Runs over some of an eval set's cases (``metadata.selection``) read by what reads runs
against each other: the mark itself, compare (either side), the flaky view's window, the
worker's journal (a stopped rerun's report is rebuilt from it)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tenxeval_tui.browsing.case_flips import CaseFlipIndex
from tenxeval_tui.evaluation import EvalCase, EvalSet, report_from_journal
from tenxeval_tui.evaluation.analysis.compare import CaseChange, compare_reports
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY, SelectionMark, selection_of
from tenxeval_tui.runs.plan import RunPlan
from tests.browsing.test_flaky_cases import DAY, history
from tests.repeat_samples import repeats_report
from tests.report_samples import BASELINE_TIME
from tests.runs.test_worker import AGENT
from tests.waiting import scaled

OK, BAD = [True], [False]
RERUN = {SELECTION_KEY: {"by": "rerun_failed", "cases": 1, "of": 3}}


def test_the_mark_reads_back_and_a_damaged_one_still_marks_a_selection() -> None:
    assert selection_of({}) is None and selection_of({SELECTION_KEY: None}) is None
    assert selection_of("not metadata") is None
    mark = selection_of(RERUN)
    assert mark == SelectionMark("rerun_failed", 1, 3)
    assert mark.text == "rerun failed, 1 of 3 cases"
    assert selection_of({SELECTION_KEY: {"by": 7, "cases": "x"}}) == SelectionMark("selection")
    assert selection_of({SELECTION_KEY: True}) == SelectionMark("selection")
    assert selection_of({SELECTION_KEY: {"by": "team-x"}}).text == "team-x"  # type: ignore[union-attr]


def test_compare_with_a_selection_as_the_baseline_calls_the_rest_not_run() -> None:
    full = repeats_report({"london": OK, "paris": OK, "tokyo": BAD}, BASELINE_TIME)
    rerun = repeats_report({"tokyo": OK}, BASELINE_TIME - DAY)
    rerun.metadata.update(RERUN)
    found = compare_reports(rerun, full)
    changes = {c.eval_id: c.change for c in found.cases}
    assert changes == {
        "tokyo": CaseChange.REGRESSED,  # passed in the rerun, fails in the full run
        "london": CaseChange.NOT_RUN,
        "paris": CaseChange.NOT_RUN,
    }
    assert (found.baseline_pass_rate, found.current_pass_rate) == (1.0, 0.0)
    assert found.pass_rate_cases == 1 and found.baseline_selection == "rerun failed, 1 of 3 cases"
    # two runs of every case: as before (removed and new, each run's own pass rate)
    other = repeats_report({"london": OK, "oslo": BAD}, BASELINE_TIME + DAY)
    plain = compare_reports(full, other)
    assert {c.eval_id: c.change for c in plain.cases}["paris"] == CaseChange.REMOVED
    assert plain.pass_rate_cases is None and plain.current_pass_rate == 0.5
    assert "not_run" not in plain.model_dump_json() and "not run" not in plain.format_summary()


def test_the_flaky_window_counts_runs_of_every_case_and_keeps_the_reruns_between(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    runs = [{"london": OK, "paris": BAD}, {"london": BAD, "paris": OK}, {"london": OK, "paris": OK}]
    for day, cases in enumerate(runs):
        repeats_report(cases, BASELINE_TIME + day * DAY).to_file(folder / f"full_{day}.json")
    for n in range(4):  # four reruns of paris after the last full run
        rerun = repeats_report({"paris": OK}, BASELINE_TIME + (2.1 + n / 10) * DAY)
        rerun.metadata.update(RERUN)
        rerun.to_file(folder / f"rerun_{n}.json")
    window = history(folder, last=3)
    # before, the window was the last 3 reports: three reruns of paris, no run of london
    assert [run.path.name for run in window][:3] == ["full_0.json", "full_1.json", "full_2.json"]
    assert len(window) == 7
    assert [run.outcome.selection for run in window][3:] == ["rerun failed, 1 of 3 cases"] * 4
    flags = CaseFlipIndex(folder, None, last=3).history("weather-agent")
    assert flags.of("london") is not None and flags.of("london").flips == 2  # type: ignore[union-attr]


def test_a_reruns_journal_holds_its_mark_for_the_report_rebuilt_from_it(tmp_path: Path) -> None:
    (tmp_path / "hostile.py").write_text(AGENT)
    path = tmp_path / "h.evalset.json"
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(3)]
    EvalSet(eval_set_id="h", eval_cases=cases).to_file(path)
    journal = tmp_path / "journal.jsonl"
    plan = RunPlan(
        agent="hostile:agent",
        eval_sets=[path],
        search_path=tmp_path,
        output_dir=tmp_path / "out",
        journal=journal,
    ).rerunning({path: ["c1"]}, "rerun_failed")
    done = subprocess.run(
        plan.command(), cwd=tmp_path, capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    mark = {"by": "rerun_failed", "cases": 1, "of": 3}
    assert report_from_journal(journal).metadata[SELECTION_KEY] == mark  # a killed rerun's
    (written,) = (tmp_path / "out").glob("*.json")  # the worker's own report
    assert json.loads(written.read_text())["metadata"][SELECTION_KEY] == mark


def test_a_shard_part_is_a_selection_read_from_its_shard_mark() -> None:
    shard = {"index": 2, "count": 4, "total": 24, "run": "0123456789abcdef"}
    assert selection_of({"shard": shard}) == SelectionMark("shard", None, 24, "2/4")
    assert selection_of({"shard": shard}).text == "shard 2/4 of 24 cases"  # type: ignore[union-attr]
    both = selection_of({"shard": shard, **RERUN})  # a part of a run of some cases
    assert both == SelectionMark("rerun_failed", 1, 3, "2/4")
    assert both is not None and both.text == "rerun failed, 1 of 3 cases, shard 2/4"
    assert selection_of({SELECTION_KEY: both.to_json()}) == both  # the history index's round trip
    assert selection_of({"shard": {**shard, "index": 1, "count": 1}}) is None  # 1/1: every case
    assert selection_of({"shard": "damaged"}) == SelectionMark("shard", None, None, "?")


def test_a_report_combining_sets_says_what_their_runs_chose() -> None:
    from tenxeval_tui.evaluation import EvalReport
    from tenxeval_tui.evaluation.selection_marks import combined_selection

    tagged = repeats_report({"london": OK}, BASELINE_TIME)
    tagged.metadata[SELECTION_KEY] = {"by": "tags", "cases": 1, "of": 4}
    whole = repeats_report({"oslo": OK, "rome": BAD}, BASELINE_TIME)
    whole.eval_set_id = "other"
    combined = EvalReport.combine([tagged, whole])
    assert combined.metadata[SELECTION_KEY] == {"by": "tags", "cases": 3, "of": 6}
    assert SELECTION_KEY not in EvalReport.combine([whole, whole]).metadata
    # a set max_cost stopped (partial, one case not run) counts the 3 cases it was to run
    stopped = whole.model_copy(deep=True)
    stopped.metadata.update(partial=True, stopped_by="max_cost", not_run=["paris"])
    cut = EvalReport.combine([tagged, stopped])
    assert cut.metadata[SELECTION_KEY] == {"by": "tags", "cases": 4, "of": 7}  # was 3 of 6
    rerun = {SELECTION_KEY: {"by": "rerun_failed", "cases": 1, "of": 3}}
    mixed = combined_selection([(tagged.metadata, 1), (rerun, 1)])
    assert mixed == {"by": "selection", "cases": 2, "of": 7}
    unknown = combined_selection([({SELECTION_KEY: True}, 1), ({}, 2)])
    assert unknown == {"by": "selection", "cases": None, "of": None}
