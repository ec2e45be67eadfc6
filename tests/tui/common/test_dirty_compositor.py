"""The workbench's screens draw, in a partial update, only the widgets under the regions
that changed (screens/common/dirty_compositor.py); what a terminal shows after those
updates is still, cell for cell, the whole screen drawn anew.

Snapshot tests draw whole screens; this test replays every frame's update, as a terminal
receives it, into a terminal emulator (pyte), and compares it with the screen drawn whole
after each key: a widget left out of an update it showed in would leave an old cell.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyte
from textual._compositor import CompositorUpdate
from textual.pilot import Pilot
from textual.strip import Strip

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import to_field, wait_for, wait_for_form
from tests.tui.editor.test_editor_typing import editor
from tests.tui.editor.test_form_follows_cursor import mixed_cases

COLUMNS, ROWS = 120, 40


def _terminal() -> tuple[pyte.Screen, pyte.Stream]:
    screen = pyte.Screen(COLUMNS, ROWS)
    return screen, pyte.Stream(screen)


class MirroredApp(WorkbenchApp):
    """The workbench, each update it draws also written to a terminal emulator."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mirror, self._stream = _terminal()
        self.updates = 0

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            self._stream.feed(renderable.render_segments(self.console))
            self.updates += 1

    def drawn_whole(self) -> pyte.Screen:
        """The screen as drawn whole now, in a terminal of its own."""
        screen, stream = _terminal()
        stream.feed(whole_screen(self))
        return screen

    def start_mirror(self) -> None:
        """The mirror shows the whole screen (updates come after it)."""
        self._stream.feed(whole_screen(self))


def whole_screen(app: WorkbenchApp) -> str:
    """What a terminal is sent to draw the current screen whole."""
    strips: list[Strip] = app.screen._compositor.render_strips()
    return "".join(
        f"\x1b[{row + 1};1H" + strip.render(app.console) for row, strip in enumerate(strips)
    )


def cells(screen: pyte.Screen) -> list[list[tuple[str, str, str, bool, bool]]]:
    return [
        [
            (c.data, c.fg, c.bg, c.bold, c.reverse)
            for c in (screen.buffer[row][column] for column in range(COLUMNS))
        ]
        for row in range(ROWS)
    ]


async def assert_mirror_is_whole(pilot: Pilot[Any], app: MirroredApp, what: str) -> None:
    await pilot.pause()
    mirrored, whole = cells(app.mirror), cells(app.drawn_whole())
    for row in range(ROWS):
        assert mirrored[row] == whole[row], (
            f"after {what}, row {row}: the terminal shows\n{app.mirror.display[row]!r}\n"
            f"the whole screen drawn anew\n{app.drawn_whole().display[row]!r}"
        )


async def test_the_updates_a_terminal_receives_add_up_to_the_whole_screen(
    tmp_path: Path,
) -> None:
    app = MirroredApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(COLUMNS, ROWS)) as pilot:
        await wait_for_form(pilot)
        await pilot.pause()
        app.start_mirror()
        table = editor(app).query_one(CaseTable)
        # Cases of one turn and two, with none, one or two tool calls: rows and fields
        # changing in place, and forms changing shape.
        for key in ["down"] * 5 + ["up"] * 2:
            cursor = table.cursor
            updates = app.updates
            await pilot.press(key)
            await wait_for(
                pilot,
                lambda c=cursor, u=updates: table.cursor != c and app.updates > u,
                what=f"{key} drawn",
            )
            await assert_mirror_is_whole(pilot, app, key)
        await to_field(pilot, "eval_id", "enter")
        await assert_mirror_is_whole(pilot, app, "enter")
        for key in ["end", "x", "ctrl+z", "ctrl+y", "tab", "y", "escape"]:
            await pilot.press(key)
            await assert_mirror_is_whole(pilot, app, key)
        assert app.updates > 10
