"""How the dialogs of a case's tools look at 80x24: its recorded calls (f8) with a field
that does not parse, and its metadata.tools (f9) with two faults and a field named
wrong. Update with ``pytest --snapshot-update``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.recorded_calls import RecordedCallsScreen
from tenxeval_tui.screens.editor.tool_section import ToolSectionScreen
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tests.tui.conftest import wait_for, wait_for_form
from tests.tui.sample_project import sample_project

SIZE = (80, 24)


def no_blink(pilot: Pilot[Any]) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        assert isinstance(widget, Input | TextArea)
        widget.cursor_blink = False


def problem_shown(pilot: Pilot[Any], key: str) -> bool:
    return any(f.key == key and f.has_class("-invalid") for f in pilot.app.screen.query(CaseField))


def test_recorded_calls_with_a_problem(snap_compare: Any, tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        await pilot.press("f8")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RecordedCallsScreen))
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(CaseField)))
        pilot.app.screen.query_one("FieldColumn").focus_field("0.args")
        await pilot.press("end", "backspace")
        await wait_for(pilot, lambda: problem_shown(pilot, "0.args"))
        no_blink(pilot)
        await pilot.pause()

    app = WorkbenchApp(project / "sample_evals/support_tools.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_tool_section_with_faults(snap_compare: Any, tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for_form(pilot)
        form = pilot.app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        document = pilot.app.screen.document  # type: ignore[attr-defined]
        await pilot.press(*["down"] * 4)  # lookup_down: two timeouts
        await wait_for(pilot, lambda: form.uid == document.cases[4].uid)
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ToolSectionScreen))
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(CaseField)))
        pilot.app.screen.query_one("FieldColumn").focus_field("faults.1.call")
        await pilot.press("ctrl+u", "x")
        await wait_for(pilot, lambda: problem_shown(pilot, "faults.1.call"))
        no_blink(pilot)
        await pilot.pause()

    app = WorkbenchApp(project / "sample_evals/support_tools.evalset.json", watch_files=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
