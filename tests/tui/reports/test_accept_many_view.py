"""Accept several cases' replies from the report browser: one dialog listing them with
what changes, one write through the editor's document, one ctrl+z there undoes them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.help import binding_rows
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tests.authoring.test_accept_many import EVAL_SET, replies, run
from tests.tui.accept_setup import report_project
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.tui.conftest import highlighted_command, notifications, search_palette
from tests.waiting import wait_for


async def project(tmp_path: Path) -> Path:
    """An eval set written a minute ago, and a report of a real run of it."""
    return await report_project(tmp_path, "cities", EVAL_SET, run)


async def test_accept_replies_lists_the_cases_and_one_ctrl_z_undoes_them(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_current_report(pilot, count=1)
        assert "A" in {getattr(b, "key", "") for b in ReportScreen.BINDINGS}
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "2 case(s)" in dialog.question
        assert dialog.details.splitlines()[:2] == [
            "oslo: 'Snow in Oslo.' -> 'Heavy snow in Oslo today.'",
            "lima: 'Sun in Lima.' -> 'Fog in Lima.'",
        ]
        assert "kyiv" not in dialog.details  # it also called another tool
        assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        await pilot.press("a")  # accept
        await wait_for(pilot, lambda: any("now expect" in n for n in notifications(app)))
        assert isinstance(app.screen, EditorScreen)
        editor = app.screen
        assert replies(eval_set) == {
            "rome": "Sunny in Rome.",
            "oslo": "Heavy snow in Oslo today.",
            "kyiv": "Sun in Kyiv.",
            "lima": "Fog in Lima.",
        }
        assert editor.document is not None and not editor.document.dirty
        await pilot.press("ctrl+z")  # one step takes both back
        await wait_for(pilot, lambda: editor.document is not None and editor.document.dirty)
        assert not editor.document.can_undo
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)
        )
        assert screen.document is not None


async def test_accept_replies_refuses_when_the_file_changed_since(tmp_path: Path) -> None:
    eval_set = await project(tmp_path)
    eval_set.write_text(EVAL_SET, encoding="utf-8")  # written after the run
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await open_current_report(pilot, count=1)
        await pilot.press("A")
        await wait_for(
            pilot, lambda: any("changed on disk since this run" in n for n in notifications(app))
        )
        assert not isinstance(app.screen, ChoiceScreen)
        assert eval_set.read_text(encoding="utf-8") == EVAL_SET


async def test_outside_the_workbench_the_replies_are_written_through_a_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_set = await project(tmp_path)
    monkeypatch.chdir(tmp_path)  # the workspace of a standalone browser: the current folder
    app = BrowserApp(tmp_path / "eval_reports")
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot, count=1)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: any("now expect" in n for n in notifications(app)))
        assert replies(eval_set)["oslo"] == "Heavy snow in Oslo today."
        assert replies(eval_set)["lima"] == "Fog in Lima."
        assert replies(eval_set)["kyiv"] == "Sun in Kyiv."


def case_text(text: str, eval_id: str) -> str:
    """The bytes of case ``eval_id`` in eval set ``text`` (as EVAL_SET writes one)."""
    start = text.index(f'    {{"eval_id": "{eval_id}"')
    return text[start : text.index("]}", start)]


async def select_oslo_and_kyiv(pilot: object, screen: ReportScreen) -> ReportCaseTable:
    table = screen.query_one(ReportCaseTable)
    assert [row.eval_id for row in table.items] == ["rome", "oslo", "kyiv", "lima"]
    await pilot.press("down", "space", "space")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: table.mark_count == 2)  # type: ignore[arg-type]
    assert [row.eval_id for row in table.items if table.is_marked(row)] == ["oslo", "kyiv"]
    assert "2 selected" in plain(screen.query_one("#status-filter", Static))
    return table


async def test_two_selected_of_three_failed_are_accepted_and_one_ctrl_z_undoes_them(
    tmp_path: Path,
) -> None:
    eval_set = await project(tmp_path)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_current_report(pilot, count=1)
        await select_oslo_and_kyiv(pilot, screen)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "2 selected case(s)" in dialog.question
        assert list(dialog.choices) == ["all", "response", "tools", "nodes", "cancel"]
        assert dialog.details.splitlines()[:2] == [
            "oslo: 'Snow in Oslo.' -> 'Heavy snow in Oslo today.'",
            "kyiv: 'Sun in Kyiv.' -> 'Rain in Kyiv.'",
        ]
        assert "lima" not in dialog.details  # failed, but not selected
        assert any(  # kyiv's other tool, in its diff
            line.startswith("+") and '"radar"' in line for line in dialog.details.splitlines()
        )
        assert eval_set.read_text(encoding="utf-8") == EVAL_SET
        await pilot.press("a")  # reply, tools and nodes, for both
        await wait_for(
            pilot, lambda: any("2 case(s)" in n and "now expect" in n for n in notifications(app))
        )
        assert isinstance(app.screen, EditorScreen)
        editor = app.screen
        text = eval_set.read_text(encoding="utf-8")
        for kept in ("rome", "lima"):  # the third failed case and the passed one: same bytes
            assert case_text(EVAL_SET, kept) in text
        cases = {c["eval_id"]: c for c in json.loads(text)["eval_cases"]}
        kyiv = cases["kyiv"]["conversation"][0]
        assert kyiv["expected_final_response"]["content"] == "Rain in Kyiv."
        assert kyiv["expected_tool_trajectory"] == [{"name": "radar", "args": {"city": "Kyiv"}}]
        assert kyiv["expected_node_order"] == ["agent"]
        assert cases["oslo"]["conversation"][0]["expected_node_order"] == ["agent"]
        assert editor.document is not None and not editor.document.dirty
        await pilot.press("ctrl+z")  # one step takes both back
        await wait_for(pilot, lambda: editor.document is not None and editor.document.dirty)
        assert not editor.document.can_undo
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: eval_set.read_text(encoding="utf-8") != text)
        assert json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(EVAL_SET)


async def test_one_part_chosen_for_the_selected_cases_leaves_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_set = await project(tmp_path)
    monkeypatch.chdir(tmp_path)  # the workspace of a standalone browser: the current folder
    app = BrowserApp(tmp_path / "eval_reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        await select_oslo_and_kyiv(pilot, screen)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("r")  # the replies only
        await wait_for(
            pilot, lambda: any("now expect this run's reply" in n for n in notifications(app))
        )
        assert replies(eval_set) == {
            "rome": "Sunny in Rome.",
            "oslo": "Heavy snow in Oslo today.",
            "kyiv": "Rain in Kyiv.",
            "lima": "Sun in Lima.",
        }
        kyiv = json.loads(eval_set.read_text(encoding="utf-8"))["eval_cases"][2]
        turn = kyiv["conversation"][0]
        assert turn["expected_tool_trajectory"] == [{"name": "forecast", "args": {"city": "Kyiv"}}]
        assert "expected_node_order" not in turn


async def test_star_selects_the_failed_cases_and_escape_clears_before_going_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await project(tmp_path)
    monkeypatch.chdir(tmp_path)
    app = BrowserApp(tmp_path / "eval_reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_current_report(pilot, count=1)
        table = screen.query_one(ReportCaseTable)
        await pilot.press("asterisk")
        await wait_for(pilot, lambda: table.mark_count == 3)
        assert [row.eval_id for row in table.items if table.is_marked(row)] == [
            "oslo",
            "kyiv",
            "lima",
        ]
        await pilot.press("space")  # the cursor is on rome: it joins them
        await wait_for(pilot, lambda: table.mark_count == 4)
        await pilot.press("escape")
        await wait_for(pilot, lambda: table.mark_count == 0)
        assert app.screen is screen  # escape cleared the selection, it did not go back
        assert "selected" not in plain(screen.query_one("#status-filter", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen)


async def test_the_selection_keys_are_in_the_help_and_the_palette(tmp_path: Path) -> None:
    await project(tmp_path)
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        screen = await open_current_report(pilot, count=1)
        rows = binding_rows(app.help_sections(screen))
        for row in [
            ("one report's case table", "space", "Select"),
            ("one report's case table", "*", "Select failed"),
            ("one report's case table", "esc", "Clear selection"),
            ("one report", "A", "Accept several"),
            ("run view's case table", "space", "Select"),
            ("run view", "A", "Accept several"),
        ]:
            assert row in rows
        await search_palette(pilot, "select failed", "Select failed")
        assert "(*)" in highlighted_command(app)
        await pilot.press("enter")
        table = screen.query_one(ReportCaseTable)
        await wait_for(pilot, lambda: table.mark_count == 3)
        await search_palette(pilot, "accept several", "Accept several")
        assert "(A)" in highlighted_command(app)
