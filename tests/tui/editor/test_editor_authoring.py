"""Author an eval set from scratch with the keyboard only, and check what is written."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import to_field, wait_for

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text)


async def test_author_a_multi_turn_case_with_tool_args_by_keyboard(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: app.focused is not None, what="the file list's focus")
        await pilot.press("n")  # the file list has the focus in an empty folder
        await wait_for(pilot, lambda: getattr(app.focused, "id", None) == "new-name")
        await type_text(pilot, "weather")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.sub_title.startswith("weather.evalset.json"))
        await to_field(pilot, "eval_id", "ctrl+n")
        await pilot.press("ctrl+u")  # clear the proposed id
        await type_text(pilot, "paris_chat")
        await to_field(pilot, "name", "tab")
        await type_text(pilot, "Paris chat")
        await to_field(pilot, "tags", "tab", "tab")  # past the description
        await type_text(pilot, "smoke, multi")
        await to_field(pilot, "turns.0.user", "tab")
        await type_text(pilot, "Hello")
        await to_field(pilot, "turns.0.expected", "tab")
        await type_text(pilot, "Hi! How can I help?")
        await to_field(pilot, "turns.0.tools.0.name", "ctrl+o")
        await type_text(pilot, "get_weather")
        await to_field(pilot, "turns.0.tools.0.args", "tab")
        await type_text(pilot, '{"location": "Paris", "days": 2}')
        await to_field(pilot, "turns.1.user", "alt+t")
        await type_text(pilot, "Weather in Paris?")
        await to_field(pilot, "turns.1.expected", "tab")
        await type_text(pilot, "18C in Paris.")
        await wait_for(pilot, lambda: app.screen.sub_title == "weather.evalset.json ● unsaved")
        await pilot.press("ctrl+s")  # saved by a worker: the title says when it is done
        await wait_for(pilot, lambda: app.screen.sub_title == "weather.evalset.json")
        assert app.screen.query_one(CaseTable).visible_uids

    expected = (
        EvalSetBuilder("weather")
        .add_multi_turn(
            [("Hello", "Hi! How can I help?"), ("Weather in Paris?", "18C in Paris.")],
            expected_tools=[ToolCall(name="get_weather", args={"location": "Paris", "days": 2})],
            case_id="paris_chat",
            name="Paris chat",
            tags=["smoke", "multi"],
        )
        .build()
    )
    expected.eval_set_id = "weather"  # a new file's id is its name's slug, not a UUID
    written = (tmp_path / "weather.evalset.json").read_text(encoding="utf-8")
    assert UUID.sub("<uuid>", written) == UUID.sub("<uuid>", expected.to_json() + "\n")


def test_a_new_eval_set_name_that_cannot_be_a_file_is_refused_with_why(tmp_path: Path) -> None:
    from tenxeval_tui.screens.editor.new_eval_set import new_eval_set_path

    path, hint = new_eval_set_path(tmp_path, "smoke")
    assert path == tmp_path / "smoke.evalset.json" and "on the first save" in hint
    path, hint = new_eval_set_path(tmp_path, "x" * 300)  # raised ENAMETOOLONG: the app crashed
    assert path is None and hint == "cannot use this name: File name too long"
    path, hint = new_eval_set_path(tmp_path, "../elsewhere")
    assert path is None and "without folders" in hint
    path, hint = new_eval_set_path(tmp_path, "nul\0byte")
    assert path is None and hint.startswith("cannot use this name")
