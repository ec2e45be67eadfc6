"""The helper the run view's tests open it with hands the screen over only once its options
bar holds its values (a test that set or read a field earlier raced the field's mounting)."""

from __future__ import annotations

import os
from pathlib import Path

from textual.message import Message

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.widgets.run.run_options import RunOptions

from .conftest import open_run_screen, run_screen_ready


async def test_the_run_screen_is_ready_once_its_options_hold_the_last_run(workspace: Path) -> None:
    (Path(os.environ["TENXEVAL_CONFIG_DIR"]) / "settings.toml").write_text(
        f'[last_run]\nagent = "weather_bot:agent"\nworkspace = "{workspace.resolve()}"\n'
        'concurrency = 3\npreset = "strict"\n'
    )
    app = WorkbenchApp(workspace)
    ready_with: list[tuple[str, int | None, str | None]] = []
    opening = True

    def look(_: Message) -> None:
        """At every message the app handles while the screen opens: what the options say
        whenever it counts as ready."""
        if opening and app.screen_stack and run_screen_ready(app.screen):
            choice = app.screen.query_one(RunOptions).choice()
            ready_with.append((choice.agent, choice.concurrency, choice.preset))

    async with app.run_test(size=(160, 40), message_hook=look) as pilot:
        await open_run_screen(pilot)
        opening = False
    assert ready_with and set(ready_with) == {("weather_bot:agent", 3, "strict")}
