"""Unsaved work kept when the terminal goes away: the recorded-calls dialog's draft (f8)
beside its cassette, and, at the next start, a notice naming every file kept so.

(The editor's own unsaved eval set is kept too: tests/tui/common/test_terminal_gone.py,
in a real terminal.)
"""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.terminal_driver import TerminalGone
from tests.tui.conftest import notifications_with_titles, wait_for, wait_for_form
from tests.tui.editor.test_editor_tools import CASSETTE, SET, SIZE, focus, open_calls
from tests.tui.sample_project import sample_project


async def test_the_calls_dialogs_unsaved_draft_is_kept_when_the_terminal_goes_away(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    before = cassette.read_bytes()
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        screen = await open_calls(pilot)
        await focus(pilot, "0.args")
        await pilot.press("end", "backspace", *', "n": ')  # half typed: not valid JSON yet
        app.post_message(TerminalGone("hang-up"))
        await wait_for(pilot, lambda: app.return_code == 129, what="the app exits")
    assert cassette.read_bytes() == before  # nobody asked to save: the cassette stays
    kept = project / "sample_evals/support_tools.tools.jsonl.order_status.unsaved.json"
    assert sorted(p.name for p in kept.parent.glob("*.unsaved*")) == [kept.name]
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert data["case"] == "order_status" == screen.draft.case
    assert data["cassette"] == "support_tools.tools.jsonl"
    assert data["calls"][0]["tool"] == "lookup_order"
    assert data["calls"][0]["args"] == '{"order_id": "A100", "n": '
    assert data["problems"]["0.args"].startswith("invalid JSON")


async def test_the_next_start_names_the_unsaved_work_kept(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    folder = project / "sample_evals"
    (folder / "support_tools.evalset.json.unsaved").write_text("{}", encoding="utf-8")
    draft = folder / "support_tools.tools.jsonl.order_status.unsaved.json"
    draft.write_text("{}", encoding="utf-8")
    app = WorkbenchApp(project, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        told = [n for n in notifications_with_titles(app) if n.title == "Unsaved work kept"]
        assert len(told) == 1
        lines = told[0].message.splitlines()
        assert lines[:2] == [
            "  sample_evals/support_tools.evalset.json.unsaved",
            "  sample_evals/support_tools.tools.jsonl.order_status.unsaved.json",
        ]
        assert (folder / "support_tools.evalset.json.unsaved").read_text() == "{}"  # not loaded
