"""ctrl+z and ctrl+y paint what they change, in the key's own step: the case's row in the
list and its fields, not the whole list nor the whole screen; and whatever the fields
still had to handle (keys, a paste) is applied before the undo, never after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events
from textual._compositor import LayoutUpdate  # what a whole-screen repaint draws
from textual.strip import Strip
from textual.widgets._header import HeaderTitle  # the header's title line

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import to_field, wait_for, wait_for_form
from tests.tui.editor.test_editor_typing import editor
from tests.tui.editor.test_form_follows_cursor import mixed_cases


class FrameRecordingApp(WorkbenchApp):
    """The workbench, noting what each frame it draws is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[object] = []

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            self.frames.append(renderable)


def eval_id_shown(app: WorkbenchApp) -> str:
    return next(f.value for f in editor(app).query_one(CaseForm).fields if f.key == "eval_id")


async def test_an_undo_repaints_its_case_s_row_and_fields_not_the_list_nor_the_screen(
    tmp_path: Path,
) -> None:
    app = FrameRecordingApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        table = editor(app).query_one(CaseTable)
        drawn: list[int] = []
        render_line = table.render_line

        def counting(y: int) -> Strip:
            drawn.append(y)
            return render_line(y)

        table.render_line = counting  # type: ignore[method-assign]
        await to_field(pilot, "eval_id", "enter")
        await pilot.press("end", "x")
        await wait_for(pilot, lambda: eval_id_shown(app) == "case_0x", what="the x typed")
        await pilot.pause()
        for key, shown in (("ctrl+z", "case_0"), ("ctrl+y", "case_0x"), ("ctrl+z", "case_0")):
            drawn.clear()
            frames = len(app.frames)
            await pilot.press(key)
            await wait_for(
                pilot,
                lambda shown=shown, n=frames: eval_id_shown(app) == shown and len(app.frames) > n,
                what=f"{key} shown",
            )
            await pilot.pause()
            # The file became unsaved, or not: before, the new title repainted the whole
            # screen, and the list was drawn again whole.
            assert not any(isinstance(f, LayoutUpdate) for f in app.frames[frames:]), key
            assert set(drawn) == {0}, key  # the first case's row (the list has no header line)


async def test_a_paste_queued_before_ctrl_z_is_applied_before_it(tmp_path: Path) -> None:
    app = WorkbenchApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        await to_field(pilot, "eval_id", "enter")
        await pilot.press("end")
        # As a terminal hands them over: the paste, then ctrl+z, before the app handled
        # either (ctrl+z is a priority binding: it runs as the key arrives, while the
        # paste still waits in the field's queue).
        app.post_message(events.Paste("_pasted"))
        app.post_message(events.Key("ctrl+z", None))
        screen = editor(app)
        document = screen.document
        assert document is not None
        uid = document.cases[0].uid
        await wait_for(
            pilot,
            lambda: document.case(uid).eval_id == "case_0" and eval_id_shown(app) == "case_0",
            what="the paste undone",
        )
        await pilot.pause()
        assert eval_id_shown(app) == "case_0"  # the paste was not applied after the undo
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: eval_id_shown(app) == "case_0_pasted", what="the redo")


async def test_a_new_sub_title_is_drawn_in_the_step_that_set_it(tmp_path: Path) -> None:
    app = WorkbenchApp(mixed_cases(tmp_path), watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        title = screen.query_one(HeaderTitle)
        screen.sub_title = "mixed.evalset.json ● unsaved"
        # No await: before, Textual's header updated a step later, after the frame that
        # showed the edit (the marker came a frame late).
        assert "● unsaved" in str(title.render())
        await pilot.pause()
        assert "● unsaved" in str(title.render())
