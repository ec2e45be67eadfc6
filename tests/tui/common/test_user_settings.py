"""The workbench and the user's settings file: the theme persists, keys rebind, a bad file
is a located warning (the app still starts), the run view remembers its options."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.help import HelpScreen
from tenxeval_tui.settings.user_settings import load_user_settings
from tenxeval_tui.widgets.run.run_options import RunOptions
from tests.tui.conftest import notifications, wait_for
from tests.tui.run.conftest import open_run_screen, write_workspace


def settings_file() -> Path:
    return Path(os.environ["TENXEVAL_CONFIG_DIR"]) / "settings.toml"


async def test_the_theme_chosen_in_the_app_is_there_next_time(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme != "nord"
        app.theme = "nord"
        await wait_for(pilot, lambda: load_user_settings()[0].theme == "nord")
    again = WorkbenchApp(weather_set)
    async with again.run_test() as pilot:
        await wait_for(pilot, lambda: again.theme == "nord")


async def test_the_environment_s_theme_wins_over_the_file(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings_file().write_text('theme = "nord"\n')
    monkeypatch.setenv("TENXEVAL_THEME", "gruvbox")
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.theme == "gruvbox")
    assert load_user_settings()[0].theme == "nord"  # starting with it is no change to save


async def test_a_bad_file_is_a_located_warning_and_the_app_starts(weather_set: Path) -> None:
    settings_file().write_text('theme = "nord"\n[run]\nconcurrency = 0\n')
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: any("run.concurrency" in t for t in notifications(app)))
        (message,) = [t for t in notifications(app) if "run.concurrency" in t]
        assert message.startswith(f"{settings_file()}:3: run.concurrency: ")
        assert app.theme != "nord"  # the file is ignored until it is fixed
        await pilot.press("b")  # and the app works
        await wait_for(pilot, lambda: app.current_mode == "reports")


async def test_an_unknown_theme_or_binding_id_is_named(weather_set: Path) -> None:
    settings_file().write_text('theme = "no-such-theme"\n[keys]\n"workbench.nothing" = "f9"\n')
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: len(notifications(app)) >= 2)
        text = "\n".join(notifications(app))
        assert "theme: no theme 'no-such-theme'" in text
        assert "keys.workbench.nothing: no key binding has this id" in text


async def test_a_rebound_key_works_and_help_shows_it(weather_set: Path) -> None:
    settings_file().write_text('[keys]\n"workbench.reports" = "f3"\n')
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("b")  # the old key does nothing now
        await pilot.press("question_mark")  # handled after b: once help shows, b has been
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.current_mode == "editor"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press("f3")
        await wait_for(pilot, lambda: app.current_mode == "reports")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen)
        rows = {(where, what): keys for where, keys, what in app.screen.rows}
        assert rows[("everywhere", "Reports")] == "f3"
    assert notifications(app) == []


async def test_the_run_view_starts_with_the_options_last_run(weather_set: Path) -> None:
    here = weather_set.parent.resolve()
    settings_file().write_text(
        f'[last_run]\nagent = "my_agent:graph"\nworkspace = "{here}"\n'
        'concurrency = 7\npreset = "strict"\n'
    )
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        choice = screen.query_one(RunOptions).choice()
        assert (choice.agent, choice.concurrency, choice.preset) == ("my_agent:graph", 7, "strict")


async def test_the_agent_last_run_elsewhere_is_not_offered(weather_set: Path) -> None:
    settings_file().write_text(
        '[last_run]\nagent = "my_agent:graph"\nworkspace = "/elsewhere"\nconcurrency = 7\n'
    )
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        choice = screen.query_one(RunOptions).choice()
        assert (choice.agent, choice.concurrency) == ("", 7)


async def test_starting_a_run_remembers_its_options(tmp_path: Path) -> None:
    workspace = write_workspace(tmp_path / "project")
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        chosen = screen.query_one(RunOptions).choice()
    last = load_user_settings()[0].last_run
    assert (last.agent, last.concurrency, last.preset) == (
        chosen.agent,
        chosen.concurrency,
        chosen.preset,
    )
    assert last.agent == "weather_bot:agent"  # the workspace's agent, written down
    assert last.workspace == str(workspace.resolve())


async def test_the_report_browser_lists_the_user_s_report_folder(
    weather_set: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenxeval_tui.screens.reports.reports import ReportsScreen

    monkeypatch.chdir(tmp_path)
    settings_file().write_text('[run]\noutput_dir = "my-reports"\n')
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        screen = app.screen
        assert isinstance(screen, ReportsScreen)
        assert screen.folder == tmp_path / "my-reports"


async def test_the_run_view_s_jobs_and_agent_follow_the_layers_until_a_run(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings_file().write_text("[run]\nconcurrency = 5\n")
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert screen.query_one(RunOptions).choice().concurrency == 5  # the user's file
    monkeypatch.setenv("TENXEVAL_CONCURRENCY", "3")
    monkeypatch.setenv("TENXEVAL_AGENT", "env_agent:graph")
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        choice = screen.query_one(RunOptions).choice()
        assert (choice.agent, choice.concurrency) == ("env_agent:graph", 3)
    monkeypatch.setenv("TENXEVAL_CONCURRENCY", "many")  # a bad variable: the app still opens
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert screen.query_one(RunOptions).choice().concurrency == 4
