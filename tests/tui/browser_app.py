"""A small app that hosts the report browser for tests (the real app shell wires it the same way)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from tenxeval_tui.screens.common.host import EDIT_ACTION, RERUN_ACTION, CaseRequest
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.waiting import wait_for


class BrowserApp(App[None]):
    """Opens the report list of ``folder``; records URLs instead of starting a browser."""

    def __init__(self, folder: Path | str) -> None:
        super().__init__()
        self.folder = folder
        self.opened: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(ReportsScreen(self.folder))

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        self.opened.append(url)


class BrowserAppWithCaseActions(BrowserApp):
    """Also has the editor and run-view actions the browser hands cases to."""

    def __init__(self, folder: Path | str) -> None:
        super().__init__(folder)
        self.case_actions: list[tuple[str, str, str]] = []

    def on_case_request(self, request: CaseRequest) -> None:
        kind = {EDIT_ACTION: "edit", RERUN_ACTION: "rerun"}.get(request.action, request.action)
        self.case_actions.append((kind, request.eval_set_id, request.eval_id))


SIZE = (130, 45)


def plain(widget: Static) -> str:
    """What a Static shows, as plain text (wide enough not to wrap)."""
    console = Console(width=400, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


async def open_current_report(pilot: Pilot[None], count: int = 2) -> ReportScreen:
    """Wait for ``count`` reports in the list, then open the first (the newest)."""
    app = pilot.app
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) >= count)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
    await pilot.pause()
    assert isinstance(app.screen, ReportScreen)
    return app.screen


async def open_first_case(pilot: Pilot[None], count: int = 2) -> ReportScreen:
    """Open the current report (:func:`open_current_report`), then its first case; the
    report screen once it shows the case."""
    screen = await open_current_report(pilot, count)
    await pilot.press("enter")
    await wait_for(pilot, lambda: screen.showing_case is not None)
    return screen


async def wait_listed(pilot: Pilot[None], count: int) -> None:
    """Wait for ``count`` reports in the list, with their columns sized: the rows come in
    first and their columns are sized on the refresh after (a loaded machine once took a
    snapshot between the two, the columns still narrow)."""
    await wait_for(pilot, lambda: len(pilot.app.screen.query_one(ReportList).entries) == count)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()
