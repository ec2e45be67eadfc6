"""Accept actual from the report browser: the dialog with the diff, the write through the
editor's document (ctrl+z there undoes it), the refusal when the file changed since."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tests.authoring.test_accept_actual import EVAL_SET, run
from tests.tui.accept_setup import report_project
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report
from tests.tui.conftest import notifications
from tests.waiting import wait_for


async def project(tmp_path: Path) -> Path:
    """An eval set written a minute ago, and a report of a real run of it."""
    return await report_project(tmp_path, "weather", EVAL_SET, run)


async def open_oslo(pilot: object) -> ReportScreen:
    screen = await open_current_report(pilot, count=1)  # type: ignore[arg-type]
    await pilot.press("down", "enter")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: screen.showing_case is not None)  # type: ignore[arg-type]
    assert screen.showing_case is not None and screen.showing_case.eval_id == "oslo"
    return screen


async def test_accept_goes_through_the_editor_and_ctrl_z_undoes_it(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await open_oslo(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert '+        "content": "Heavy snow in Oslo today."' in dialog.details
        assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        await pilot.press("a")  # accept reply, tools and nodes
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.document)
        await wait_for(pilot, lambda: any("now expects" in n for n in notifications(app)))
        turn = json.loads(eval_set.read_text(encoding="utf-8"))["eval_cases"][1]["conversation"][0]
        assert turn["expected_final_response"]["content"] == "Heavy snow in Oslo today."
        assert turn["expected_node_order"] == ["agent"]
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.document is not None
        assert not editor.document.dirty
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: editor.document is not None and editor.document.dirty)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        )


async def test_a_file_changed_since_the_run_is_refused(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    eval_set.write_text(EVAL_SET, encoding="utf-8")  # written after the run
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await open_oslo(pilot)
        await pilot.press("a")
        await wait_for(
            pilot, lambda: any("changed on disk since this run" in n for n in notifications(app))
        )
        assert not isinstance(app.screen, ChoiceScreen)
        assert eval_set.read_text(encoding="utf-8") == EVAL_SET


async def test_outside_the_workbench_one_part_is_written_through_a_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_set = await project(tmp_path)
    monkeypatch.chdir(tmp_path)  # the workspace of a standalone browser: the current folder
    app = BrowserApp(tmp_path / "eval_reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_oslo(pilot)
        assert "Accept actual" in plain_footer(screen)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("r")  # the reply only
        await wait_for(pilot, lambda: any("now expects" in n for n in notifications(app)))
        turn = json.loads(eval_set.read_text(encoding="utf-8"))["eval_cases"][1]["conversation"][0]
        assert turn["expected_final_response"]["content"] == "Heavy snow in Oslo today."
        assert turn["expected_tool_trajectory"] == [{"name": "forecast", "args": {"city": "Oslo"}}]
        assert "expected_node_order" not in turn


def plain_footer(screen: ReportScreen) -> str:
    return " ".join(
        b.binding.description
        for b in screen.active_bindings.values()
        if b.binding.show and b.enabled
    )
