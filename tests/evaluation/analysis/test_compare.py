"""Comparing two runs: case changes, criterion deltas, sorting and serialisation."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.analysis.compare import (
    CASE_SORT_KEYS,
    CaseChange,
    ReportComparison,
    compare_reports,
)
from tests.report_samples import baseline_report, current_report


def test_sample_runs_classify_every_case() -> None:
    comparison = compare_reports(baseline_report(), current_report())
    by_id = {c.eval_id: c.change for c in comparison.cases}
    assert by_id == {
        "london": CaseChange.UNCHANGED,
        "paris": CaseChange.REGRESSED,
        "tokyo": CaseChange.FIXED,
        "berlin": CaseChange.STILL_FAILING,
        "rome": CaseChange.REMOVED,
        "oslo": CaseChange.NEW,
    }
    assert comparison.has_regressions
    paris = comparison.regressed[0]
    assert (paris.baseline_status, paris.current_status) == ("passed", "failed")
    berlin = comparison.still_failing[0]
    assert (berlin.baseline_status, berlin.current_status) == ("error", "failed")
    assert comparison.removed[0].current_status is None
    assert comparison.new[0].baseline_status is None


def test_default_order_puts_regressions_first() -> None:
    comparison = compare_reports(baseline_report(), current_report())
    assert [c.change for c in comparison.cases][:4] == [
        CaseChange.REGRESSED,
        CaseChange.FIXED,
        CaseChange.NEW,
        CaseChange.REMOVED,
    ]


def test_criterion_deltas_follow_the_summaries() -> None:
    comparison = compare_reports(baseline_report(), current_report())
    rouge = next(d for d in comparison.criteria if d.criterion == "rouge_match")
    # baseline rouge: 0.9 0.9 0.2 0.9 0.9; current: 0.9 0.3 0.9 0.1 0.9
    assert rouge.baseline_avg_score == pytest.approx(0.76)
    assert rouge.current_avg_score == pytest.approx(0.62)
    assert rouge.avg_score_delta == pytest.approx(-0.14)
    assert rouge.pass_rate_delta == pytest.approx(-0.2)


def test_criterion_missing_from_one_run_has_no_delta() -> None:
    only_before = EvalReport.create(
        "s", [EvalCaseResult(eval_id="a", passed=True, criterion_results=[_cr("old", 1.0)])]
    )
    only_after = EvalReport.create(
        "s", [EvalCaseResult(eval_id="a", passed=True, criterion_results=[_cr("new", 0.5)])]
    )
    deltas = {d.criterion: d for d in compare_reports(only_before, only_after).criteria}
    assert deltas["old"].current_avg_score is None and deltas["old"].avg_score_delta is None
    assert deltas["new"].baseline_pass_rate is None and deltas["new"].pass_rate_delta is None


def test_same_eval_id_in_two_eval_sets_stays_apart() -> None:
    def combined(passed_b: bool) -> EvalReport:
        return EvalReport.combine(
            [
                EvalReport.create("set_a", [EvalCaseResult(eval_id="x", passed=True)]),
                EvalReport.create("set_b", [EvalCaseResult(eval_id="x", passed=passed_b)]),
            ]
        )

    comparison = compare_reports(combined(True), combined(False))
    assert [(c.eval_set_id, c.change) for c in comparison.regressed] == [
        ("set_b", CaseChange.REGRESSED)
    ]
    assert len(comparison.cases) == 2


def test_sorting_by_each_key_and_unknown_key() -> None:
    comparison = compare_reports(baseline_report(), current_report())
    by_case = comparison.sorted_cases("case")
    assert [c.eval_id for c in by_case] == ["berlin", "london", "oslo", "paris", "rome", "tokyo"]
    by_delta = comparison.sorted_cases("delta")
    deltas = [c.score_delta for c in by_delta]
    known = [d for d in deltas if d is not None]
    assert known == sorted(known)
    assert deltas[len(known) :] == [None] * (len(deltas) - len(known))
    assert by_delta[0].eval_id == "paris"
    for key in CASE_SORT_KEYS:
        assert len(comparison.sorted_cases(key, reverse=True)) == len(comparison.cases)
    with pytest.raises(ValueError, match="unknown sort key 'nope'"):
        comparison.sorted_cases("nope")


def test_round_trips_through_json() -> None:
    comparison = compare_reports(baseline_report(), current_report())
    data = json.loads(comparison.model_dump_json())
    assert data["cases"][0]["change"] == "regressed"
    assert ReportComparison.model_validate(data) == comparison


def test_summary_text_lists_changes_and_deltas() -> None:
    text = compare_reports(baseline_report(), current_report()).format_summary()
    assert "Pass rate: 60.0% -> 60.0% (+0.0 pts)" in text
    assert "1 regressed, 1 fixed, 1 new, 1 removed, 1 still failing, 1 unchanged" in text
    assert "rouge_match: 0.76 -> 0.62 (-0.14), 80% -> 60% (-20.0 pts)" in text
    assert "paris (Paris weather): passed -> failed" in text
    assert "Unchanged:" not in text


def _cr(name: str, score: float) -> CriterionResult:
    return CriterionResult.success(name, score, 0.5)


statuses = st.sampled_from(["passed", "failed", "error", None])


def _result(eval_id: str, status: str) -> EvalCaseResult:
    return EvalCaseResult(
        eval_id=eval_id,
        passed=status == "passed",
        error="boom" if status == "error" else None,
        criterion_results=[_cr("c", 1.0 if status == "passed" else 0.0)],
    )


@given(st.dictionaries(st.text(min_size=1, max_size=4), st.tuples(statuses, statuses)))
def test_every_case_lands_in_exactly_one_bucket(
    pairs: dict[str, tuple[str | None, str | None]],
) -> None:
    before = EvalReport.create("s", [_result(k, b) for k, (b, _) in pairs.items() if b])
    after = EvalReport.create("s", [_result(k, a) for k, (_, a) in pairs.items() if a])
    comparison = compare_reports(before, after)
    expected_ids = {k for k, (b, a) in pairs.items() if a or b}
    assert sorted(c.eval_id for c in comparison.cases) == sorted(expected_ids)
    assert sum(comparison.counts().values()) == len(expected_ids)
    for case in comparison.cases:
        b, a = pairs[case.eval_id]
        assert (case.baseline_status, case.current_status) == (b, a)
        if case.change == CaseChange.REGRESSED:
            assert b == "passed" and a in ("failed", "error")
        if case.change == CaseChange.FIXED:
            assert b in ("failed", "error") and a == "passed"
    assert comparison.has_regressions == any(
        b == "passed" and a in ("failed", "error") for b, a in pairs.values()
    )


@given(st.lists(st.sampled_from(["passed", "failed", "error"]), max_size=8))
def test_a_run_compared_with_itself_changes_nothing(status_list: list[str]) -> None:
    report = EvalReport.create("s", [_result(f"c{i}", s) for i, s in enumerate(status_list)])
    comparison = compare_reports(report, report)
    assert not comparison.has_regressions
    assert {c.change for c in comparison.cases} <= {CaseChange.UNCHANGED, CaseChange.STILL_FAILING}
    assert all(d.avg_score_delta == 0 for d in comparison.criteria)


def _in_set(result: EvalCaseResult, eval_set_id: str) -> EvalCaseResult:
    return result.model_copy(update={"metadata": {"eval_set_id": eval_set_id}})


def test_a_report_whose_cases_name_no_eval_set_compares_by_the_reports_id() -> None:
    # 10xGraph's reports carry no eval_set_id per case; ours always do
    ours = EvalReport.create("weather", [_in_set(_result("paris", "passed"), "weather")])
    theirs = EvalReport.create("weather", [_result("paris", "failed")])
    comparison = compare_reports(ours, theirs)
    assert [(c.eval_id, c.change) for c in comparison.cases] == [("paris", CaseChange.REGRESSED)]
    assert comparison.has_regressions


def test_cases_sharing_a_key_are_compared_one_by_one() -> None:
    # two files with one eval_set_id, combined in one run: both cases count
    both = [
        _in_set(_result("greeting", "passed"), "s"),
        _in_set(_result("greeting", "passed"), "s"),
    ]
    later = [both[0], _in_set(_result("greeting", "failed"), "s")]
    comparison = compare_reports(EvalReport.create("s", both), EvalReport.create("s", later))
    assert [(c.occurrence, c.change) for c in comparison.cases] == [
        (1, CaseChange.REGRESSED),
        (0, CaseChange.UNCHANGED),
    ]


def test_a_partial_run_is_said_to_be_partial() -> None:
    full = EvalReport.create("s", [_result("a", "passed"), _result("b", "failed")])
    cancelled = EvalReport.create("s", [_result("a", "passed")])
    cancelled.metadata["partial"] = True
    comparison = compare_reports(full, cancelled)
    assert (comparison.baseline_partial, comparison.current_partial) == (False, True)
    assert "the current run is partial" in comparison.format_summary()
