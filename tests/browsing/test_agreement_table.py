"""Verdicts against labels of the same replies, per criterion and for the whole case."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.browsing.agreement_table import agreement_table
from tenxeval_tui.browsing.labels import LabelIndex
from tenxeval_tui.browsing.verdicts import read_verdicts
from tenxeval_tui.evaluation.analysis.agreement import Confusion
from tenxeval_tui.evaluation.errors import EvalFileError
from tests.browsing.label_samples import FIGURE_KEYS, JUDGED, human, judged_report, write_report

# c00-c07 passed by the judge, c08-c11 failed; c12 errored
JUDGE = [True] * 8 + [False] * 4 + [True]
ALICE = [
    human("c00", "pass"),
    human("c01", "pass"),
    human("c02", "pass"),
    human("c03", "pass"),
    human("c04", "pass"),
    human("c05", "fail"),
    human("c06", "fail"),
    human("c07", "fail"),
    human("c08", "pass"),
    human("c09", "fail"),
    human("c10", "fail"),
    human("c11", "fail"),
    human("c12", "fail"),  # an errored case gives no verdict: no pair
    human("c01", "fail", reply="an earlier run's reply"),  # another reply: no pair
    human("c00", "pass", criterion=None),  # whole-case labels: reported as `case`
    human("c05", "fail", criterion=None),
]


def _table(tmp_path: Path, labels: list) -> object:
    report = read_verdicts(write_report(tmp_path, judged_report(JUDGE, errored=[12])))
    return agreement_table([(report, LabelIndex(labels))])


def test_a_criterion_against_labels_by_hand(tmp_path: Path) -> None:
    table = _table(tmp_path, ALICE)
    # judge pass / human pass 5, judge pass / human fail 3, judge fail / human pass 1,
    # both fail 3: kappa = (8/12 - 1/2) / (1/2) = 1/3 (worked in test_agreement.py)
    figures = table.criteria[JUDGED]
    assert figures.confusion == Confusion(5, 3, 1, 3)
    assert figures.kappa == pytest.approx(1 / 3)
    assert figures.tpr == pytest.approx(5 / 6) and figures.tnr == pytest.approx(0.5)
    assert figures.meaningful
    low, high = figures.kappa_low, figures.kappa_high
    assert low is not None and high is not None and low < 1 / 3 < high


def test_whole_case_labels_compare_with_the_case_verdict_as_case(tmp_path: Path) -> None:
    table = _table(tmp_path, ALICE)
    assert list(table.criteria) == [JUDGED, "case"]  # the report's criteria, then case
    case = table.criteria["case"]
    assert case.confusion == Confusion(pass_pass=1, pass_fail=1)
    assert not case.meaningful  # 2 pairs


def test_disagreements_carry_both_verdicts_and_the_judges_reason(tmp_path: Path) -> None:
    table = _table(tmp_path, ALICE)
    found = table.disagreements(JUDGED)
    assert [pair.case.eval_id for pair in found] == ["c05", "c06", "c07", "c08"]
    c08 = found[-1]
    assert (c08.judge, c08.label.label) == (False, "pass")
    assert c08.reason == "Claims about c08 do not hold."


def test_several_reviewers_each_give_pairs_and_are_compared_with_each_other(
    tmp_path: Path,
) -> None:
    bob = [
        human("c00", "pass", reviewer="bob"),
        human("c01", "pass", reviewer="bob"),
        human("c05", "fail", reviewer="bob"),
        human("c08", "fail", reviewer="bob"),
    ]
    table = _table(tmp_path, [*ALICE, *bob])
    # bob's four labels are four more pairs: judge passed c00, c01, c05; failed c08
    assert table.criteria[JUDGED].confusion == Confusion(5 + 2, 3 + 1, 1, 3 + 1)
    (pair,) = table.reviewers[JUDGED]
    assert (pair.first, pair.second) == ("alice", "bob")
    # alice pass/bob pass on c00, c01; both fail on c05; alice pass/bob fail on c08
    assert pair.figures.confusion == Confusion(2, 1, 0, 1)
    # p_o = 3/4; alice passes 3/4, bob 2/4: p_e = 3/8 + 1/8 = 1/2; kappa = 1/2
    assert pair.figures.kappa == pytest.approx(0.5)
    assert "case" not in table.reviewers  # bob gave no whole-case label


def test_the_json_has_the_documented_shape(tmp_path: Path) -> None:
    data = _table(tmp_path, ALICE).as_json()
    assert set(data) == {"criteria", "reviewers"}
    assert set(data["criteria"]) == {JUDGED, "case"}
    entry = data["criteria"][JUDGED]
    assert set(entry) == set(FIGURE_KEYS)
    assert entry["confusion"] == {"pass_pass": 5, "pass_fail": 3, "fail_pass": 1, "fail_fail": 3}


def test_no_labels_no_criteria(tmp_path: Path) -> None:
    table = _table(tmp_path, [])
    assert table.criteria == {} and table.below(0.5) == []


def test_a_report_that_is_no_report_names_its_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"eval_set_id": "x", "results": [{"eval_id": "a", "criterion_results": 3}]}')
    with pytest.raises(EvalFileError) as caught:
        read_verdicts(path)
    assert str(path) in str(caught.value) and "results[0]" in str(caught.value)
