"""The HTML page's case data made as the run's parent reads the journal
(reporters/html.py ``PreparedCases``): the page is the one made after the run, byte for
byte, and the cases made before are not made again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation.reporters import html
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions
from tenxeval_tui.evaluation.reporters.html import HTMLReporter, PreparedCases
from tenxeval_tui.evaluation.results.journal_results import JournalResults
from tenxeval_tui.evaluation.results.journal_tail import JournalTail

from ..results.varied_journal import write_varied_journal


def _page(reporter: HTMLReporter, report: object) -> bytes:
    return b"".join(reporter.render_parts(report))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("most", "options"),
    [
        (html.MAX_CASES, ViewOptions()),
        (5, ViewOptions(include_details=False, include_node_responses=False)),
    ],
)
def test_a_page_of_prepared_cases_is_the_page_made_after_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most: int, options: ViewOptions
) -> None:
    path = tmp_path / "run.journal.jsonl"
    write_varied_journal(path, cases=30, sets=1)
    page = PreparedCases(options, most=most)
    tail = JournalTail(path, page.add)
    (report,) = tail.finish()
    reporter = HTMLReporter(**options.switches(), max_cases=most)
    made_after = _page(reporter, report)
    assert isinstance(report.results, JournalResults)
    page.attach(report.results)

    made = 0
    case_parts = html._case_parts

    def counted(*args: object) -> object:
        nonlocal made
        made += 1
        return case_parts(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(html, "_case_parts", counted)
    assert _page(reporter, report) == made_after
    if most == html.MAX_CASES:
        assert made == 0  # every case came from the prepared data
    else:  # the cases come out of report order: a shown one may not have been made
        assert made < most


def test_prepared_cases_of_other_switches_are_not_taken(tmp_path: Path) -> None:
    path = tmp_path / "run.journal.jsonl"
    write_varied_journal(path, cases=8, sets=1)
    page = PreparedCases(ViewOptions(include_details=False))
    (report,) = JournalTail(path, page.add).finish()
    reporter = HTMLReporter()
    made_after = _page(reporter, report)
    assert isinstance(report.results, JournalResults)
    page.attach(report.results)
    assert _page(reporter, report) == made_after


def test_the_page_data_of_a_case_makes_no_uuid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A uuid a case (the placeholder of its node entries) was a tenth of the data a
    # run's parent makes as each case ends (issue #38); one a process does the same.
    path = tmp_path / "run.journal.jsonl"
    write_varied_journal(path, cases=6, sets=1)
    made: list[object] = []
    real = html.uuid.uuid4

    def counted() -> object:
        made.append(None)
        return real()

    monkeypatch.setattr(html.uuid, "uuid4", counted)
    page = PreparedCases(ViewOptions())
    JournalTail(path, page.add).finish()
    assert page._places  # the cases' data was made
    assert made == []
