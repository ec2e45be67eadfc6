"""The editor warns of keys nothing reads (typos that check nothing): the file's list with
file:line:column on opening, the shown case's under its title, kept current as the case
is edited; the keys themselves are kept on save."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Static

from tenxeval_tui.app import WorkbenchApp
from tests.tui.browser_app import plain
from tests.tui.conftest import notifications_with_titles, to_field, wait_for, wait_for_form


def typo_set(folder: Path) -> Path:
    path = folder / "typos.evalset.json"
    data = {
        "eval_set_id": "typos",
        "eval_cases": [
            {
                "eval_id": "a",
                "tagz": ["smoke"],
                "conversation": [
                    {
                        "user_content": {"role": "user", "content": "Weather?"},
                        "expected_tool_use": [{"name": "get_weather"}],
                    }
                ],
            }
        ],
    }
    path.write_text(json.dumps(data, indent=2))
    return path


async def test_the_editor_lists_unknown_keys_and_keeps_them_on_save(tmp_path: Path) -> None:
    path = typo_set(tmp_path)
    line = 1 + path.read_text().split('"tagz"')[0].count("\n")
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for_form(pilot)
        await wait_for(
            pilot,
            lambda: any("key(s) nothing reads" in n.title for n in notifications_with_titles(app)),
            what="the file's unknown keys",
        )
        note = next(n for n in notifications_with_titles(app) if "nothing reads" in n.title)
        assert f"typos.evalset.json:{line}:7: eval_cases[0]: warning: unknown key 'tagz'" in (
            note.message
        )
        assert "did you mean expected_tool_trajectory?" in note.message
        # the case's own line comes as the form shows the case (its widgets reused)
        await wait_for(
            pilot,
            lambda: app.screen.query_one("#case-unknown-keys", Static).display,
            what="the case's unknown-keys line",
        )
        warning = app.screen.query_one("#case-unknown-keys", Static)
        shown = plain(warning)
        assert "conversation[0]: unknown key 'expected_tool_use'" in shown
        assert "this case: unknown key 'tagz' (nothing reads it); did you mean tags?" in shown

        await to_field(pilot, "eval_id", "enter")
        await to_field(pilot, "name", "tab")
        await pilot.press(*"renamed")
        await wait_for(pilot, lambda: app.screen.query_one("#f-name", Input).value == "renamed")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: json.loads(path.read_text())["eval_cases"][0].get("name"))
        case = json.loads(path.read_text())["eval_cases"][0]
        assert case["name"] == "renamed"
        assert case["tagz"] == ["smoke"]  # kept: 10xGraph files must round-trip
        assert case["conversation"][0]["expected_tool_use"] == [{"name": "get_weather"}]
