"""The editor and a case's tools: its recorded calls (f8: looked at, edited by keyboard,
checked, written with the other cases' lines kept) and its metadata.tools (f9 and
shift+f9: fakes, faults and end state authored with completion, checked by field,
applied as one undo step), at 80x24."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.editor.recorded_calls import RecordedCallsScreen
from tenxeval_tui.screens.editor.tool_section import ToolSectionScreen
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import (
    highlighted_command,
    notifications,
    search_palette,
    wait_for,
    wait_for_form,
)
from tests.tui.sample_project import sample_project

SIZE = (80, 24)
SET = "sample_evals/support_tools.evalset.json"
CASSETTE = "sample_evals/support_tools.tools.jsonl"


def field(app: WorkbenchApp, key: str) -> CaseField:
    return next(f for f in app.screen.query(CaseField) if f.key == key)


def problem_of(app: WorkbenchApp, key: str) -> str | None:
    return field(app, key)._problem


def editor(app: WorkbenchApp) -> EditorScreen:
    return next(s for s in app.screen_stack if isinstance(s, EditorScreen))


async def focus(pilot: Pilot[Any], key: str) -> None:
    """Focus field ``key`` of the dialog and wait until it has the focus."""
    pilot.app.screen.query_one("FieldColumn").focus_field(key)
    await wait_for(pilot, lambda: pilot.app.focused is field(pilot.app, key).editor, what=key)


async def open_calls(pilot: Pilot[Any]) -> RecordedCallsScreen:
    await pilot.press("f8")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RecordedCallsScreen))
    screen = pilot.app.screen
    assert isinstance(screen, RecordedCallsScreen)
    await wait_for(pilot, lambda: bool(screen.query(CaseField)) or not screen.draft.texts)
    return screen


async def open_section(pilot: Pilot[Any], key: str = "f9") -> ToolSectionScreen:
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ToolSectionScreen))
    screen = pilot.app.screen
    assert isinstance(screen, ToolSectionScreen)
    await wait_for(pilot, lambda: bool(screen.query(CaseField)))
    return screen


async def suggested(pilot: Pilot[Any], key: str, completion: str) -> None:
    box = field(pilot.app, key).editor
    assert isinstance(box, Input)
    await wait_for(pilot, lambda: box._suggestion == completion, what=f"{key}: {completion}")


async def test_a_cases_recorded_calls_are_edited_checked_and_written_keeping_the_others(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    before = cassette.read_text(encoding="utf-8").splitlines()
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        screen = await open_calls(pilot)  # the first case: order_status
        assert app.focused is field(app, "0.tool").editor
        assert [field(app, f"0.{name}").value for name in ("tool", "args", "error_type")] == [
            "lookup_order",
            '{"order_id": "A100"}',
            "",
        ]
        assert json.loads(field(app, "0.result").value) == {"status": "shipped", "eta": "Friday"}
        await focus(pilot, "0.args")
        await pilot.press("end", *["backspace"] * 6, *'A999"')  # no closing brace yet
        await wait_for(pilot, lambda: problem_of(app, "0.args") is not None)
        assert problem_of(app, "0.args") == (
            "invalid JSON: Expecting ',' delimiter (line 1, column 20)"
        )
        await pilot.press("ctrl+s")  # refused: nothing is written, nothing typed is lost
        await wait_for(pilot, lambda: any("Not saved" in n for n in notifications(app)))
        assert cassette.read_text(encoding="utf-8").splitlines() == before
        assert field(app, "0.args").value == '{"order_id": "A999"'
        await pilot.press("}", "ctrl+s")
        await wait_for(pilot, lambda: not screen.draft.dirty, what="the save")
        after = cassette.read_text(encoding="utf-8").splitlines()
        assert after[1] == before[1]  # lookup_retried's line, byte for byte
        assert json.loads(after[0])["args"] == {"order_id": "A999"}
        assert json.loads(after[0])["result"] == {"status": "shipped", "eta": "Friday"}
        # One undo step per field typed into: back to A100 (unsaved), then saved again.
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: field(app, "0.args").value == '{"order_id": "A100"}')
        assert screen.draft.dirty
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not screen.draft.dirty, what="the second save")
        assert cassette.read_text(encoding="utf-8").splitlines() == before
        await pilot.press("escape")  # nothing unsaved: closes at once
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))


async def test_calls_are_added_removed_and_moved_and_closing_unsaved_asks(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    before = cassette.read_bytes()
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        screen = await open_calls(pilot)
        await pilot.press("ctrl+n")  # after the focused call
        await wait_for(pilot, lambda: app.focused is field(app, "1.tool").editor)
        await pilot.press(*"ref")
        await suggested(pilot, "1.tool", "refund")  # from the agent's own tools
        await pilot.press("right", "tab", "ctrl+u", *'{"order_id": "A100"}', "tab")
        await pilot.press("ctrl+up")  # the new call first
        await wait_for(pilot, lambda: field(app, "0.tool").value == "refund")
        assert [t.tool for t in screen.draft.texts] == ["refund", "lookup_order"]
        await focus(pilot, "1.tool")
        await pilot.press("ctrl+delete")
        await wait_for(pilot, lambda: len(screen.draft.texts) == 1)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: len(screen.draft.texts) == 2)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")  # cancel: the edits stay
        await wait_for(pilot, lambda: app.screen is screen)
        assert [t.tool for t in screen.draft.texts] == ["refund", "lookup_order"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")  # discard
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert cassette.read_bytes() == before


async def test_a_case_without_calls_gets_its_first_lines_in_case_order(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    before = cassette.read_text(encoding="utf-8").splitlines()
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        await pilot.press("down")  # refund_once: nothing recorded (its refund is faked)
        form = app.screen.query_one(CaseForm)
        document = editor(app).document
        assert document is not None
        await wait_for(pilot, lambda: form.uid == document.cases[1].uid)
        screen = await open_calls(pilot)
        assert screen.draft.texts == ()
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: app.focused is field(app, "0.tool").editor)
        await pilot.press(*"refund", "tab", "ctrl+u", *'{"order_id": "A100"}')
        await focus(pilot, "0.error_type")
        await pilot.press(*"ConnectionError")
        await focus(pilot, "0.result")  # null: no result, as a call that raised has
        await pilot.press("end", *["backspace"] * 4, "1")
        await wait_for(pilot, lambda: problem_of(app, "0.result") is not None)
        assert problem_of(app, "0.result") == (
            "a call that raised has no result: empty this, or the error's type"
        )
        await pilot.press("backspace")
        await wait_for(pilot, lambda: problem_of(app, "0.result") is None)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not screen.draft.dirty, what="the save")
        lines = cassette.read_text(encoding="utf-8").splitlines()
        assert lines[0] == before[0] and lines[2] == before[1]  # between order_status and...
        assert json.loads(lines[1]) == {
            "case": "refund_once",
            "call": 1,
            "tool": "refund",
            "args": {"order_id": "A100"},
            "error": {"type": "ConnectionError", "message": ""},
            "duration": 0.0,
        }


async def test_untrusted_text_in_a_cassette_is_shown_inert_and_written_back_unchanged(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J[bold]owned[/]"
    line = {
        "case": "order_status",
        "call": 1,
        "tool": "lookup_order\x1b[31m",
        "args": {"order_id": "A100"},
        "result": {"note": hostile},
        "duration": 0.0,
    }
    cassette.write_text(json.dumps(line) + "\n", encoding="utf-8")
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        screen = await open_calls(pilot)
        result = field(app, "0.result").editor
        assert result is not None and "\x1b" not in result.text  # JSON escapes it
        assert "\\u001b]52;c;" in result.text
        tool = field(app, "0.tool").editor  # the box shows the control as a glyph
        assert isinstance(tool, Input) and tool.value == "lookup_order␛[31m"
        title = str(screen.query_one("RecordedCallBlock").border_title)
        assert "\x1b" not in title and "lookup_order␛[31m" in title
        await focus(pilot, "0.error_message")  # an edit elsewhere; the hostile text stays
        await pilot.press("x", "backspace")
        await focus(pilot, "0.args")
        await pilot.press("end", "backspace", *', "n": 1}')
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not screen.draft.dirty, what="the save")
        saved = json.loads(cassette.read_text(encoding="utf-8"))
        assert saved["result"] == {"note": hostile}
        assert saved["tool"] == "lookup_order\x1b[31m"
        assert saved["args"] == {"order_id": "A100", "n": 1}


async def test_a_cassette_that_does_not_read_is_named_and_a_rerecorded_case_asks(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    cassette = project / CASSETTE
    good = cassette.read_text(encoding="utf-8")
    cassette.write_text(good + "{not json\n", encoding="utf-8")
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        await pilot.press("f8")
        await wait_for(
            pilot,
            lambda: any("support_tools.tools.jsonl:3" in n for n in notifications(app)),
        )
        assert isinstance(app.screen, EditorScreen)
        cassette.write_text(good, encoding="utf-8")
        screen = await open_calls(pilot)
        # A recording run rewrites the case's lines while the dialog is open.
        cassette.write_text(good.replace('"Friday"', '"Monday"'), encoding="utf-8")
        await focus(pilot, "0.tool")
        await pilot.press("end", "x", "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")  # cancel: the run's lines stay
        await wait_for(pilot, lambda: app.screen is screen)
        assert '"Monday"' in cassette.read_text(encoding="utf-8") and screen.draft.dirty
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")  # overwrite with the dialog's
        await wait_for(pilot, lambda: not screen.draft.dirty)
        first = json.loads(cassette.read_text(encoding="utf-8").splitlines()[0])
        assert first["tool"] == "lookup_orderx" and first["result"]["eta"] == "Friday"


async def test_a_cases_tools_are_authored_with_completion_and_applied_as_one_undo_step(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    path = project / SET
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        await open_section(pilot)  # order_status: no section yet
        await pilot.press("f3")  # a fault
        await wait_for(pilot, lambda: app.focused is field(app, "faults.0.tool").editor)
        await pilot.press(*"look")
        await suggested(pilot, "faults.0.tool", "lookup_order")
        await pilot.press("right", "tab", "ctrl+u", "2", "tab", "ctrl+u", *"ra")
        await suggested(pilot, "faults.0.kind", "raises")
        await pilot.press("right", "tab", *"Conn")
        await suggested(pilot, "faults.0.value", "ConnectionError")
        await pilot.press("right", "tab", *"down")
        await pilot.press("f2")  # a fake
        await wait_for(pilot, lambda: app.focused is field(app, "fakes.0.tool").editor)
        await pilot.press(*"refu", "right", "tab", *"sample_evals.su")
        await suggested(pilot, "fakes.0.fake", "sample_evals.support_fakes")
        await pilot.press("right", ":", "r")
        await suggested(pilot, "fakes.0.fake", "sample_evals.support_fakes:refund")
        await pilot.press("right")
        await focus(pilot, "state")
        await pilot.press(*'{"refunds": []}')
        await pilot.press("f4")  # an expected end-state value
        await wait_for(pilot, lambda: app.focused is field(app, "end_state.0.path").editor)
        await pilot.press(*"$.r")
        await suggested(pilot, "end_state.0.path", "$.refunds")
        await pilot.press("right", *".`len`", "tab", "0")
        await focus(pilot, "ignore_args")
        await pilot.press(*"lookup_order.o")
        await suggested(pilot, "ignore_args", "lookup_order.order_id")
        await pilot.press("right", "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        document = editor(app).document
        assert document is not None and document.dirty
        wanted = {
            "fakes": {"refund": "sample_evals.support_fakes:refund"},
            "state": {"refunds": []},
            "faults": [
                {"tool": "lookup_order", "call": 2, "raises": "ConnectionError", "message": "down"}
            ],
            "ignore_args": ["lookup_order.order_id"],
            "end_state": {"$.refunds.`len`": 0},
        }
        assert document.cases[0].data["metadata"] == {"tools": wanted}
        assert json.loads(field(app, "metadata").value) == {"tools": wanted}  # the form too
        await pilot.press("ctrl+z")  # one step takes the whole section back
        await wait_for(pilot, lambda: document.cases[0].data["metadata"] == {})
        await pilot.press("ctrl+y", "ctrl+s")
        await wait_for(pilot, lambda: not document.dirty, what="the save")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["eval_cases"][0]["metadata"] == {"tools": wanted}


async def test_a_wrong_field_is_named_under_it_and_nothing_is_applied_until_fixed(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        for _ in range(3):  # lookup_retried: one fault
            await pilot.press("down")
        document = editor(app).document
        assert document is not None
        await wait_for(pilot, lambda: form.uid == document.cases[3].uid)
        screen = await open_section(pilot)
        assert field(app, "faults.0.value").value == "ConnectionError"
        await focus(pilot, "faults.0.kind")
        await pilot.press("ctrl+u", *"explode")
        await wait_for(pilot, lambda: problem_of(app, "faults.0.kind") is not None)
        assert problem_of(app, "faults.0.kind") == "how it fails: raises, timeout, returns"
        await focus(pilot, "faults.0.tool")
        await pilot.press("end", "x")  # a tool the agent lacks: a warning, no obstacle
        await wait_for(pilot, lambda: field(app, "faults.0.tool").has_class("-warning"))
        assert field(app, "faults.0.tool").note.startswith(
            "⚠ the agent has no tool 'lookup_orderx'"
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("Not applied" in n for n in notifications(app)))
        assert app.screen is screen
        await focus(pilot, "faults.0.kind")
        await pilot.press("ctrl+u", *"timeout", "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert document.cases[3].data["metadata"]["tools"] == {
            "faults": [{"tool": "lookup_orderx", "call": 1, "timeout": True}]
        }


async def test_the_eval_sets_section_keeps_its_agent_and_cancelling_asks(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        document = editor(app).document
        assert document is not None
        await open_section(pilot, "shift+f9")
        assert field(app, "fakes.0.fake").value == "sample_evals.support_fakes:refund"
        await focus(pilot, "fakes.0.tool")
        await pilot.press("ctrl+delete")
        await wait_for(pilot, lambda: not app.screen.query(".fake-row"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("k")  # keep editing
        await wait_for(pilot, lambda: isinstance(app.screen, ToolSectionScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert document.header_fields["metadata"] == {
            "agent": "sample_evals.plain_agent:support_agent",
            "tools": {"state": {"refunds": []}},
        }
        await open_section(pilot, "shift+f9")
        await focus(pilot, "state")
        await pilot.press("x")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert document.header_fields["metadata"]["tools"] == {"state": {"refunds": []}}


async def test_a_bad_section_in_the_file_is_a_problem_of_its_case_and_blocks_the_save(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    path = project / SET
    data = json.loads(path.read_text(encoding="utf-8"))
    data["eval_cases"][1]["metadata"]["tools"]["end_state"] = {"$.[": 1}
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        document = screen.document
        assert document is not None
        assert document.problem_uids() == {document.cases[1].uid}
        assert screen.query_one(CaseTable)  # the list marks it (problem rows are red)
        await pilot.press("down")
        form = screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.uid == document.cases[1].uid)
        await wait_for(pilot, lambda: problem_of(app, "metadata") is not None)
        assert problem_of(app, "metadata") == (
            "metadata.tools.end_state: end_state path '$.[': Parse error near the end of string!"
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert "metadata.tools.end_state" in app.screen.details


async def test_the_tool_keys_are_in_the_help_and_the_palette(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    app = WorkbenchApp(project / SET, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        sections = dict(app.help_sections(app.screen))
        editor_keys = {(b.key, b.description) for b in sections["editor"]}
        assert {
            ("f8", "Recorded tool calls"),
            ("f9", "Tools: fakes, faults, end state"),
            ("shift+f9", "Tools of every case (the eval set's)"),
        } <= editor_keys
        calls_keys = {b.key for b in sections["recorded tool calls (f8)"]}
        assert {"ctrl+s", "ctrl+n", "ctrl+delete", "ctrl+up", "ctrl+z"} <= calls_keys
        section_keys = {b.key for b in sections["tools: fakes, faults, end state (f9)"]}
        assert {"ctrl+s", "f2", "f3", "f4", "ctrl+delete"} <= section_keys
        await search_palette(pilot, "recorded tool", "Recorded tool calls")
        assert "(f8)" in highlighted_command(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RecordedCallsScreen))
