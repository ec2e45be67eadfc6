"""The newcomer's tip on the first screen: what to press to run, where the keys are."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import RUN_KEY, EditorScreen
from tenxeval_tui.settings.first_steps import state_dir
from tenxeval_tui.widgets.editor.first_steps_hint import FirstStepsHint
from tests.tui.conftest import to_field, to_widget, wait_for, wait_for_form


def hint_of(app: WorkbenchApp) -> FirstStepsHint:
    screen = next(s for s in app.screen_stack if isinstance(s, EditorScreen))
    return screen.query_one(FirstStepsHint)


def test_the_tip_names_the_keys_the_app_binds() -> None:
    run_keys = [b.key for b in WorkbenchApp.BINDINGS if getattr(b, "action", "") == "run_now"]
    assert run_keys == [RUN_KEY]


async def test_the_tip_shows_until_hidden_and_stays_hidden(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        hint = hint_of(app)
        assert hint.display and hint.region.height >= 1  # on screen, above the footer
        text = str(hint.render())
        assert "New here?" in text and "ctrl+r" in text and "ctrl+p" in text
        await to_field(pilot, "eval_id", "enter")  # into the form: x is typed, the tip stays
        await pilot.press("x")
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        assert hint.display
        await to_widget(pilot, "cases", "escape")  # from the case list, X hides it
        await pilot.press("X")
        await wait_for(pilot, lambda: not hint.display)
        assert (state_dir() / "first-steps-dismissed").exists()

    again = WorkbenchApp(weather_set, watch_files=False)
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        assert not hint_of(again).display  # remembered


async def test_a_click_hides_the_tip_too(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path, watch_files=False)  # an empty folder: the empty state
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: hint_of(app).display and hint_of(app).region.height > 0)
        assert await pilot.click(FirstStepsHint)
        await wait_for(pilot, lambda: not hint_of(app).display)
