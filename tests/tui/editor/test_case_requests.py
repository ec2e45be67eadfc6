"""Screens ask the app to act on a case by posting a ``CaseRequest``; the app answers it.

A test app captures the messages the report screens post (which screen sent them, what
they ask), an app that handles none gets none, and the workbench answers one posted by
a screen by opening the case in the editor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.screens.common.host import (
    CASE_ACTIONS,
    CONTINUE_ACTION,
    EDIT_ACTION,
    RERUN_ACTION,
    CaseRequest,
    StandaloneHost,
    host_of,
)
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.case_requests import request_case_action
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report
from tests.tui.conftest import notifications, wait_for_form
from tests.tui.sample_project import sample_project
from tests.waiting import wait_for


class CapturingApp(BrowserApp):
    """The report browser in an app that answers case requests by keeping them."""

    def __init__(self, folder: Path | str) -> None:
        super().__init__(folder)
        self.requests: list[tuple[str, CaseRequest]] = []
        """Each request, with the class of the screen shown when it came."""

    def on_case_request(self, request: CaseRequest) -> None:
        self.requests.append((type(self.screen).__name__, request))


def asked(app: CapturingApp) -> list[tuple[str, str, str, str]]:
    """What each captured request asked, and the screen shown when it came."""
    return [(shown, r.action, r.eval_set_id, r.eval_id) for shown, r in app.requests]


async def test_the_report_screen_posts_edit_and_rerun_requests(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = CapturingApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await pilot.press("down", "ctrl+e")  # the case under the cursor: paris
        await wait_for(pilot, lambda: len(app.requests) == 1)
        await pilot.press("s")
        await wait_for(pilot, lambda: len(app.requests) == 2)
        assert asked(app) == [
            ("ReportScreen", EDIT_ACTION, "weather-agent", "paris"),
            ("ReportScreen", RERUN_ACTION, "weather-agent", "paris"),
        ]
        assert isinstance(app.screen, ReportScreen)  # asking moved nowhere by itself


async def test_the_case_screen_posts_all_three_requests(tmp_path: Path) -> None:
    _, current = write_reports(tmp_path)
    app = CapturingApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        tokyo = ReportDocument.open(current).case(2)
        await app.push_screen(CaseScreen(tokyo, eval_set_id="weather-agent"))
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        await pilot.press("ctrl+e", "s", "f6")
        await wait_for(pilot, lambda: len(app.requests) == 3)
        assert asked(app) == [
            ("CaseScreen", EDIT_ACTION, "weather-agent", "tokyo"),
            ("CaseScreen", RERUN_ACTION, "weather-agent", "tokyo"),
            ("CaseScreen", CONTINUE_ACTION, "weather-agent", "tokyo"),
        ]


async def test_an_app_that_handles_no_request_is_sent_none(tmp_path: Path) -> None:
    write_reports(tmp_path)
    seen: list[CaseRequest] = []

    class Watching(BrowserApp):
        # Sees every message a screen posts that bubbles up, without answering requests.
        def _on_message(self, message: Any) -> Any:
            if isinstance(message, CaseRequest):
                seen.append(message)
            return super()._on_message(message)

    app = Watching(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        assert host_of(app).case_requests == frozenset()
        assert not request_case_action(screen, EDIT_ACTION, "weather-agent", "paris")
        await wait_for(pilot, lambda: "This app has no edit case view." in notifications(app))
        await pilot.press("down", "ctrl+e", "s")  # disabled keys: nothing posted
        await pilot.pause()
        assert seen == []


def test_a_standalone_host_answers_requests_only_for_an_app_that_handles_them() -> None:
    assert StandaloneHost(App()).case_requests == frozenset()
    assert StandaloneHost(CapturingApp(".")).case_requests == CASE_ACTIONS
    assert WorkbenchApp.case_requests == CASE_ACTIONS


async def test_the_workbench_answers_a_posted_edit_request_in_the_editor(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    app = WorkbenchApp(project / "sample_evals", watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        await pilot.press("b")  # from another mode's screen, as the report browser asks
        await wait_for(pilot, lambda: not isinstance(app.screen, EditorScreen))
        app.screen.post_message(CaseRequest(EDIT_ACTION, "plain_agent", "refund_a300"))
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        editor = app.screen
        assert isinstance(editor, EditorScreen)

        def shows_the_case() -> bool:
            document, uid = editor.document, editor.query_one(CaseTable).highlighted_uid
            if document is None or uid is None:
                return False
            return document.case(uid).eval_id == "refund_a300"

        await wait_for(pilot, shows_the_case, what="refund_a300 highlighted in plain_agent")
        assert editor.document is not None and editor.document.path is not None
        assert editor.document.path.name == "plain_agent.evalset.json"
