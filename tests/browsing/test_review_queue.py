"""The review queue's filters, the session's place and labels, and a report as labelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.browsing.labelled_report import labelled_outcome
from tenxeval_tui.browsing.labels import LabelIndex, append_label, read_labels
from tenxeval_tui.browsing.review_queue import QueueFilter, review_items
from tenxeval_tui.browsing.review_session import ReviewSession
from tenxeval_tui.browsing.verdicts import ReportVerdicts, read_verdicts
from tests.browsing.label_samples import JUDGED, human, judged_report, write_report

# c00 c01 c02 passed by the judge, c03 c04 failed; c05 errored
JUDGE = [True, True, True, False, False, True]


@pytest.fixture
def report(tmp_path: Path) -> ReportVerdicts:
    return read_verdicts(write_report(tmp_path, judged_report(JUDGE, errored=[5])))


def ids(items: list) -> list[tuple[str, str]]:
    return [(item.case.eval_id, item.name) for item in items]


def test_per_case_every_case_but_the_errored_one(report: ReportVerdicts) -> None:
    items = review_items(report, LabelIndex(), QueueFilter())
    assert ids(items) == [
        ("c00", "case"),
        ("c01", "case"),
        ("c02", "case"),
        ("c03", "case"),
        ("c04", "case"),
    ]
    assert [item.judge for item in items] == [True, True, True, False, False]


def test_per_criterion_and_one_criterion(report: ReportVerdicts) -> None:
    per_criterion = review_items(report, LabelIndex(), QueueFilter(per_criterion=True))
    assert len(per_criterion) == 5 * 3  # three criteria a case
    assert ids(per_criterion)[:3] == [
        ("c00", "tool_trajectory_avg_score"),
        ("c00", "rouge_match"),
        ("c00", JUDGED),
    ]
    only = review_items(report, LabelIndex(), QueueFilter(criterion=JUDGED))
    assert ids(only) == [(f"c0{i}", JUDGED) for i in range(5)]


def test_failed_only_never_labelled_and_disagreements_only(report: ReportVerdicts) -> None:
    labels = LabelIndex(
        [
            human("c00", "pass", criterion=None),  # agrees
            human("c01", "fail", criterion=None, reviewer="bob"),  # disagrees
            human("c03", "pass", criterion=None),  # disagrees (judge failed it)
        ]
    )
    assert ids(review_items(report, labels, QueueFilter(failed_only=True))) == [
        ("c03", "case"),
        ("c04", "case"),
    ]
    assert [
        i.case.eval_id for i in review_items(report, labels, QueueFilter(unlabelled_only=True))
    ] == [
        "c02",
        "c04",
    ]
    assert [
        i.case.eval_id for i in review_items(report, labels, QueueFilter(disagreements_only=True))
    ] == ["c01", "c03"]


def test_a_seeded_sample_keeps_report_order_and_repeats(report: ReportVerdicts) -> None:
    chosen = QueueFilter(per_criterion=True, sample=4, seed=11)
    first = ids(review_items(report, LabelIndex(), chosen))
    assert first == ids(review_items(report, LabelIndex(), chosen))  # the same seed, the same
    assert len(first) == 4
    everything = ids(review_items(report, LabelIndex(), QueueFilter(per_criterion=True)))
    assert first == [item for item in everything if item in first]  # in report order
    other = ids(
        review_items(report, LabelIndex(), QueueFilter(per_criterion=True, sample=4, seed=12))
    )
    assert other != first
    assert QueueFilter(criterion=JUDGED, failed_only=True, sample=4).describe() == (
        f"only {JUDGED} · failed only · sample of 4 (seed 0)"
    )


def test_a_session_resumes_at_the_first_case_this_reviewer_left(
    report: ReportVerdicts, tmp_path: Path
) -> None:
    path = tmp_path / "weather.labels.jsonl"
    append_label(path, human("c00", "pass", criterion=None))
    append_label(path, human("c01", "fail", criterion=None, reviewer="bob"))  # not alice's
    session = ReviewSession(report, read_labels(path), "alice")
    assert session.current is not None and session.current.case.eval_id == "c01"
    assert session.progress() == "1 of 5 reviewed"
    label = session.give("fail", "wrong city")
    assert (label.eval_id, label.criterion, label.reviewer, label.note) == (
        "c01",
        None,
        "alice",
        "wrong city",
    )
    assert label.report == report.path.name
    # on disk already, as one more line
    assert read_labels(path).labels[-1] == label
    assert json.loads(path.read_text().splitlines()[-1])["label"] == "fail"
    assert session.progress() == "2 of 5 reviewed"
    assert session.next_unlabelled() == 2
    session.position = 4
    assert session.next_unlabelled() == 2  # wraps around
    again = ReviewSession(report, read_labels(path), "alice")
    assert again.position == 2  # resumed where alice stopped


def test_narrowing_keeps_the_case_shown_when_it_stays(
    report: ReportVerdicts, tmp_path: Path
) -> None:
    session = ReviewSession(report, read_labels(tmp_path / "weather.labels.jsonl"), "alice")
    session.position = 3  # c03, failed
    session.narrow(QueueFilter(failed_only=True))
    assert session.current is not None and session.current.case.eval_id == "c03"
    session.narrow(QueueFilter(criterion=JUDGED))
    assert session.current is not None and session.current.key[1] == JUDGED
    assert not session.step(-10) and session.step(1)


def test_a_report_as_labelled(report: ReportVerdicts) -> None:
    labels = LabelIndex(
        [
            human("c00", "fail", criterion=None),  # a passed case labelled fail
            human("c03", "pass"),  # c03 failed on the judged criterion alone: now passes
            human("c01", "pass"),  # agrees: decided by a human, unchanged
            human("c05", "pass", criterion=None),  # errored: stays an error
        ]
    )
    outcome = labelled_outcome(report.cases, labels)
    statuses = {
        c.case.eval_id: (c.judged_status, c.labelled_status, c.by_human) for c in outcome.cases
    }
    assert statuses == {
        "c00": ("passed", "failed", True),
        "c01": ("passed", "passed", True),
        "c02": ("passed", "passed", False),
        "c03": ("failed", "passed", True),
        "c04": ("failed", "failed", False),
        "c05": ("error", "error", False),
    }
    assert outcome.judged_rate == pytest.approx(3 / 6)
    assert outcome.labelled_rate == pytest.approx(3 / 6)
    assert outcome.difference == pytest.approx(0.0)
    assert (outcome.by_human, outcome.changed) == (3, 2)
    more = labelled_outcome(report.cases, LabelIndex([human("c04", "pass")]))
    assert more.labelled_rate - more.judged_rate == pytest.approx(more.difference)
    assert more.difference == pytest.approx(1 / 6)
