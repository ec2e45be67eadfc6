"""How review mode and the agreement view look at 80x24 (``pytest --snapshot-update``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tenxeval_tui.screens.reports.agreement import AgreementScreen
from tenxeval_tui.screens.reports.review import ReviewScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.tui.browser_app import BrowserApp
from tests.tui.reports.test_agreement_view import labelled
from tests.tui.reports.test_review_mode import SIZE, project
from tests.waiting import wait_for

__all__ = ["labelled", "project"]  # the fixtures


async def _opened(pilot: Pilot[Any], key: str) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
    await pilot.press(key)
    await wait_for(
        pilot,
        lambda: (
            (isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
            or (isinstance(app.screen, AgreementScreen) and app.screen.agreement is not None)
        ),
    )
    await pilot.pause()


def test_blind_review_snapshot(snap_compare: Any, project: Path) -> None:
    async def review(pilot: Pilot[Any]) -> None:
        await _opened(pilot, "R")

    assert snap_compare(BrowserApp(project / "reports"), terminal_size=SIZE, run_before=review)


def test_agreement_snapshot(snap_compare: Any, labelled: Path) -> None:
    async def agreement(pilot: Pilot[Any]) -> None:
        await _opened(pilot, "g")

    assert snap_compare(BrowserApp(labelled / "reports"), terminal_size=SIZE, run_before=agreement)
