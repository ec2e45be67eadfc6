"""Argument matchers in the case form, by keyboard: completion offers them, a matcher that
cannot be read is a problem of its field (no save), a good one is saved as typed."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tests.tui.browser_app import plain
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.editor.test_agent_completion import box, editor, field, suggests
from tests.tui.sample_project import sample_project


async def test_a_matcher_is_typed_completed_checked_and_saved(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/plain_agent.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        await pilot.press("enter", "ctrl+o")  # a new call in the first case's turn
        name = "turns.0.tools.1.name"
        await wait_for(pilot, lambda: app.screen.focused is box(app, name))
        await pilot.press("r")
        await wait_for(pilot, lambda: suggests(app, name, "refund"))
        await pilot.press("right", "tab")
        args = "turns.0.tools.1.args"
        await wait_for(pilot, lambda: app.screen.focused is box(app, args))

        # The key from the agent's parameters, then a matcher for its value.
        await pilot.press(*'{"or')
        await wait_for(pilot, lambda: suggests(app, args, '{"order_id": '))
        await pilot.press("right", *'{"$r')
        await wait_for(pilot, lambda: suggests(app, args, '{"order_id": {"$regex": "'))
        await pilot.press("right", *'^A(1"}}')
        await wait_for(pilot, lambda: field(app, args).has_class("-invalid"))
        document = editor(app).document
        assert document is not None
        shown = plain(field(app, args).query_one(".field-error", Static))
        assert shown.startswith('args.order_id.$regex: invalid regular expression "^A(1"')
        assert document.problems()  # nothing is saved while it stands
        await pilot.press(*("backspace",) * 5, *'\\\\d"}, "reason": {"$c')
        await wait_for(
            pilot,
            lambda: suggests(
                app, args, '{"order_id": {"$regex": "^A\\\\d"}, "reason": {"$contains": "'
            ),
        )
        await pilot.press("right", *'late"}}')
        await wait_for(pilot, lambda: not field(app, args).has_class("-invalid"))
        # A matcher is no value of the wrong type: the agent check says nothing against it.
        assert not field(app, args).has_class("-warning")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not document.dirty)
    saved = json.loads(path.read_text(encoding="utf-8"))
    call = saved["eval_cases"][0]["conversation"][0]["expected_tool_trajectory"][1]
    assert call == {
        "name": "refund",
        "args": {"order_id": {"$regex": "^A\\d"}, "reason": {"$contains": "late"}},
        "call_id": None,
        "result": None,
    }
