"""The app shell: opening workspaces, switching screens, help and command palette."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.help import HelpScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import highlighted_command, search_palette, wait_for
from tests.tui.run.conftest import open_run_screen


def message_text(app: WorkbenchApp) -> str:
    shown = app.screen.query("#message")  # none until the editor is drawn
    return str(shown.first(Static).render()) if shown else ""


async def test_missing_folder_opens_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A missing folder falls back to the working directory's settings; keep the
    # repository's own [tool.tenxeval] (the sample workspace) out of this test.
    monkeypatch.chdir(tmp_path)
    app = WorkbenchApp(tmp_path / "sample_evals")
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "no such file or folder" in message_text(app))
        assert isinstance(app.screen, EditorScreen)
        assert "no such file or folder" in message_text(app)


async def test_empty_folder_says_how_to_start(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "No eval sets" in message_text(app))
        await wait_for(pilot, lambda: getattr(app.screen.focused, "id", None) == "files")


async def test_opens_the_first_eval_set_and_lists_its_cases(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set.parent)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(CaseTable)))
        table = app.screen.query_one(CaseTable)
        await wait_for(pilot, lambda: len(table.visible_uids) == 2)  # the file is read by a worker
        assert app.screen.sub_title == "weather.evalset.json"


async def test_help_lists_every_binding(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen)
        rows = {(where, keys) for where, keys, _ in app.screen.rows}
        for expected in [
            ("everywhere", "e"),
            ("everywhere", "ctrl+q"),
            ("editor", "ctrl+s"),
            ("editor", "ctrl+z"),
            ("case list", "delete"),
            ("case list", "/"),
            ("everywhere", "?"),
            ("tool call (in the form)", "ctrl+up"),
            ("run view", "ctrl+k"),  # screens not shown yet are listed too
            ("everywhere", "ctrl+r"),
            ("case and comparison tables", "enter"),
        ]:
            assert expected in rows
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))


async def test_command_palette_lists_commands_with_their_keys(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await search_palette(pilot, "new case", "New case")
        assert "ctrl+n" in highlighted_command(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.screen.query_one(CaseTable).visible_uids) == 3)


async def test_keys_on_the_empty_run_view_before_any_run_do_nothing(weather_set: Path) -> None:
    from tenxeval_tui.screens.run.run import RunScreen

    app = WorkbenchApp(weather_set.parent)
    async with app.run_test() as pilot:
        await pilot.pause()
        await open_run_screen(pilot)
        assert isinstance(app.screen, RunScreen)
        # the empty case table has the focus; up and page down crashed the app
        for key in ("up", "pagedown", "down", "home", "end", "pageup"):
            await pilot.press(key)
            await pilot.pause()
        assert app.is_running and isinstance(app.screen, RunScreen)
