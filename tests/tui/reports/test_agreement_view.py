"""The judge-agreement view by Pilot: the table, its disagreements one key away, the
report as labelled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tenxeval_tui.browsing.labels import append_label
from tenxeval_tui.screens.reports.agreement import AgreementScreen
from tenxeval_tui.screens.reports.labelled_report import LabelledReportScreen
from tenxeval_tui.screens.reports.review import ReviewScreen
from tenxeval_tui.widgets.reports.agreement_tables import FigureTable, LabelledCaseTable
from tenxeval_tui.widgets.reports.review_case import HIDDEN
from tests.browsing.label_samples import JUDGED, human
from tests.tui.browser_app import BrowserApp, plain
from tests.tui.reports.test_review_mode import SIZE, labels_file, open_from_list, project
from tests.waiting import wait_for

__all__ = ["project"]  # the fixture, shared with the review-mode tests

# pp 5, pf 3, fp 1, ff 3 on the judged criterion (kappa 1/3); whole cases c00 pass, c05 fail
VERDICTS = ["pass"] * 5 + ["fail"] * 3 + ["pass"] + ["fail"] * 3


@pytest.fixture
def labelled(project: Path) -> Path:
    for i, given in enumerate(VERDICTS):
        append_label(labels_file(project), human(f"c{i:02d}", given))  # type: ignore[arg-type]
    append_label(labels_file(project), human("c00", "pass", criterion=None))
    append_label(labels_file(project), human("c05", "fail", criterion=None))
    return project


async def open_agreement(pilot: Pilot[Any]) -> AgreementScreen:
    """``g``: the agreement view, once its figures are on screen."""
    screen = await open_from_list(
        pilot, "g", lambda s: isinstance(s, AgreementScreen) and s.agreement is not None
    )
    assert isinstance(screen, AgreementScreen)
    return screen


async def test_the_table_and_the_pass_rate_as_labelled(labelled: Path) -> None:
    app = BrowserApp(labelled / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_agreement(pilot)
        rows = screen.query_one("#agreement-criteria", FigureTable).items
        assert [row.name for row in rows] == [JUDGED, "case"]
        assert rows[0].figures.kappa == pytest.approx(1 / 3)
        header = plain(screen.query_one("#agreement-header", Static))
        # 8 of 12 pass as judged; c05 is labelled fail as a whole case, c03..c07 on the
        # judged criterion: c05 c06 c07 fail as labelled, c08 passes: 6 of 12
        assert "Pass rate as judged 66.7% · as labelled 50.0% (-16.7 pts)" in header
        detail = plain(screen.query_one("#agreement-detail", Static))
        assert "judge pass" in detail and "human fail" in detail
        assert detail.split("judge pass")[1].split()[:2] == ["5", "3"]


async def test_disagreements_are_one_key_away_with_both_verdicts(labelled: Path) -> None:
    app = BrowserApp(labelled / "reports")
    async with app.run_test(size=SIZE) as pilot:
        agreement = await open_agreement(pilot)
        await pilot.press("d")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None,
        )
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.session is not None
        assert [i.case.eval_id for i in review.session.items] == ["c05", "c06", "c07", "c08"]
        assert all(i.criterion == JUDGED for i in review.session.items)
        judge = review.view.judge_shown
        assert HIDDEN not in judge and "PASS factual_accuracy_v1" in judge  # the judge's
        assert "you FAIL" in plain(review.query_one("#review-status", Static))  # the human's
        await pilot.press("space", "space", "space")  # to the last: c08, failed by the judge
        await wait_for(pilot, lambda: review.session.current.case.eval_id == "c08")
        assert "Claims about c08 do not hold." in review.view.judge_shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is agreement)


async def test_the_report_as_labelled_marks_what_the_humans_decided(labelled: Path) -> None:
    app = BrowserApp(labelled / "reports")
    async with app.run_test(size=SIZE) as pilot:
        await open_agreement(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LabelledReportScreen))
        table = app.screen.query_one(LabelledCaseTable)
        rows = {row.case.eval_id: row for row in table.items}
        assert (rows["c05"].judged_status, rows["c05"].labelled_status) == ("passed", "failed")
        assert rows["c08"].labelled_status == "passed" and rows["c08"].by_human
        assert not rows["c02"].changed
        await pilot.press("down", "down", "down", "down", "down", "enter")  # c05
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None,
        )
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.session is not None
        assert review.session.current is not None
        assert review.session.current.case.eval_id == "c05"
        assert "whole case PASS" in review.view.judge_shown


async def test_no_labels_yet_says_how_to_start(project: Path) -> None:
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_agreement(pilot)
        assert "R reviews this report" in plain(screen.query_one("#agreement-header", Static))
        assert screen.query_one("#agreement-criteria", FigureTable).row_count == 0
