"""`x` in a report: a dialog for the path, then the report written as CSV or JSONL (the
reporters `run -o` uses); a bad path is said in the dialog, a failed write in a toast."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from textual.widgets import Input, Static

from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.screens.common.path_dialog import PathDialog as ExportScreen
from tests.report_samples import write_reports
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.tui.conftest import notifications, to_widget
from tests.waiting import wait_for


async def _export_to(pilot, app: BrowserApp, target: str) -> ExportScreen:  # type: ignore[no-untyped-def]
    await pilot.press("E")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
    await to_widget(pilot, "path-input")  # composed and focused on mount, after the push
    dialog = app.screen
    assert isinstance(dialog, ExportScreen)
    dialog.query_one("#path-input", Input).value = target
    await pilot.press("enter")
    return dialog


async def test_export_writes_csv_and_jsonl_rows_of_the_shown_report(tmp_path: Path) -> None:
    _, current = write_reports(tmp_path)
    report = EvalReport.from_file(current)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot)
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        suggested = app.screen.query_one("#path-input", Input).value
        assert suggested == str(current.with_suffix(".csv"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        await _export_to(pilot, app, str(tmp_path / "out" / "rows.csv"))
        await wait_for(pilot, lambda: (tmp_path / "out" / "rows.csv").is_file())
        await _export_to(pilot, app, str(tmp_path / "rows.jsonl"))
        await wait_for(pilot, lambda: (tmp_path / "rows.jsonl").is_file())
        await wait_for(pilot, lambda: any("exported to" in n for n in notifications(app)))

    with (tmp_path / "out" / "rows.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    lines = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    ids = {r.eval_id for r in report.results}
    assert {row["eval_id"] for row in rows} == ids
    assert {line["eval_id"] for line in lines} == ids
    assert len(rows) == len(lines) >= len(ids)


async def test_a_path_with_no_format_is_refused_in_the_dialog(tmp_path: Path) -> None:
    write_reports(tmp_path)
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        dialog = await _export_to(pilot, app, str(tmp_path / "rows.txt"))
        await wait_for(
            pilot, lambda: "names no format" in plain(dialog.query_one("#path-problem", Static))
        )
        assert app.screen is dialog
        assert not (tmp_path / "rows.txt").exists()


async def test_a_folder_that_cannot_be_written_is_said_in_a_toast(tmp_path: Path) -> None:
    write_reports(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot)
        await _export_to(pilot, app, str(blocker / "rows.csv"))
        await wait_for(pilot, lambda: any("not exported" in n for n in notifications(app)))
        (message,) = [n for n in notifications(app) if "not exported" in n]
        assert str(blocker) in message
