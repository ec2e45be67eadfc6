"""`y` copies a case's reply, tool calls, diff, or a report's path: the original text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation import EvalReport, ToolCall
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.compare import CompareScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.report_samples import case, write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report
from tests.waiting import wait_for

# Copying is not display: these reach the clipboard as they are, never escaped.
HOSTILE_REPLY = "Sunny\x1b]0;PWNED\x07 [bold]today[/bold]\x1b[2J\u202eend\x0bvt"
HOSTILE_TOOLS = [ToolCall(name="get_weather", args={"city": "Par\x1b[31mis", "days": 2})]


class CopyApp(BrowserApp):
    """The report browser, recording the notifications it shows."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.notices: list[str] = []

    def notify(self, message: str, **kwargs: Any) -> None:  # type: ignore[override]
        self.notices.append(message)
        super().notify(message, **kwargs)


def write_hostile_report(folder: Path) -> Path:
    path = folder / "hostile_20260520_000000.json"
    result = case(
        "odd",
        response=HOSTILE_REPLY,
        expected_response="Sunny today.",
        expected_tools=[ToolCall(name="get_weather", args={"city": "Paris"})],
        actual_tools=HOSTILE_TOOLS,
    )
    EvalReport.create("hostile", [result]).to_file(path)
    return path


async def answer(pilot: Any, key: str) -> None:
    app = pilot.app
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await pilot.press(key)
    await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceScreen))


async def test_y_copies_paths_replies_tool_calls_and_diffs_as_they_are(tmp_path: Path) -> None:
    path = write_hostile_report(tmp_path)
    app = CopyApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        # The list reads the folder in a worker: wait for the report before asking for its path.
        await wait_for(pilot, lambda: app.screen.query_one(ReportList).current_entry is not None)
        await pilot.press("y")  # in the list: the highlighted report's path
        await wait_for(pilot, lambda: app.clipboard == str(path.resolve()))
        assert app.notices[-1].startswith("Copied the report's path")

        screen = await open_current_report(pilot, count=1)
        app.copy_to_clipboard("")
        await pilot.press("y")  # a report with no case open: its path
        await wait_for(pilot, lambda: app.clipboard == str(path.resolve()))

        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        await answer(pilot, "r")
        await wait_for(pilot, lambda: app.clipboard == HOSTILE_REPLY)
        assert (
            app.notices[-1]
            == f"Copied the reply ({len(HOSTILE_REPLY)} characters) to the clipboard."
        )
        assert "PWNED" not in app.notices[-1]  # says what was copied, not the text

        await answer(pilot, "t")
        await wait_for(pilot, lambda: app.clipboard.startswith("["))
        assert json.loads(app.clipboard) == [{"name": "get_weather", "args": HOSTILE_TOOLS[0].args}]
        assert "Par\\u001b[31mis" in app.clipboard  # JSON writes ESC as \u001b: it parses back

        await answer(pilot, "d")
        await wait_for(pilot, lambda: app.clipboard.startswith("--- expected reply"))
        lines = app.clipboard.split("\n")
        assert "-Sunny today." in lines and f"+{HOSTILE_REPLY}" in lines
        assert "--- expected tool calls" in lines
        assert '-      "city": "Paris"' in lines

        await answer(pilot, "p")
        await wait_for(pilot, lambda: app.clipboard == str(path.resolve()))
        assert isinstance(app.screen, ReportScreen)


async def test_y_in_a_compared_case_diffs_it_with_the_baseline_run(tmp_path: Path) -> None:
    _, cur = write_reports(tmp_path)
    app = CopyApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(app.screen.query("#baseline-list")))
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison
        )
        await pilot.press("enter")  # paris, regressed: both runs
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        await answer(pilot, "d")
        await wait_for(pilot, lambda: app.clipboard.startswith("--- baseline reply"))
        lines = app.clipboard.split("\n")
        assert "-The weather in Paris is sunny." in lines
        assert "+It is [bold]raining[/bold] in Paris today." in lines
        await answer(pilot, "p")
        await wait_for(pilot, lambda: app.clipboard == str(cur.resolve()))
