"""A case's recorded calls as form texts: checked through RecordedCall, undone and redone,
written with every other case's lines kept byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.authoring.recorded_calls import (
    CallsDraft,
    CallTexts,
    call_texts,
    case_calls,
    recorded_calls,
)
from tenxeval_tui.evaluation.tools.cassette import RecordedCall, read_cassette

# Another case's lines as a person wrote them (spacing, key order): kept as they are.
OTHER = '{"tool":"search",  "case": "other", "call": 1, "args": {}, "result": [1,2]}'
CASSETTE = "\n".join(
    [
        OTHER,
        '{"case": "refund", "call": 1, "tool": "lookup_order", "args": {"order_id": "A1"}, '
        '"result": {"status": "shipped"}, "duration": 0.012}',
        '{"case": "refund", "call": 2, "tool": "refund", "args": {"order_id": "A1"}, '
        '"error": {"type": "ConnectionError", "message": "down"}, "duration": 0.5}',
        '{"case": "last", "call": 1, "tool": "t", "args": {}, "result": null}',
    ]
)


@pytest.fixture
def cassette(tmp_path: Path) -> Path:
    path = tmp_path / "support.tools.jsonl"
    path.write_text(CASSETTE + "\n", encoding="utf-8")
    return path


def test_calls_become_texts_and_back_the_same(cassette: Path) -> None:
    calls = case_calls(cassette, "refund")
    texts = [call_texts(call) for call in calls]
    assert texts[0] == CallTexts(
        "lookup_order", '{"order_id": "A1"}', '{\n  "status": "shipped"\n}', "", "", 0.012
    )
    assert texts[1].result == "" and texts[1].error_type == "ConnectionError"
    again, problems = recorded_calls("refund", texts)
    assert problems == {}
    assert [c.to_json() for c in again] == [c.to_json() for c in calls]
    assert case_calls(cassette, "nobody") == []
    assert case_calls(cassette.with_name("none.tools.jsonl"), "refund") == []


def test_each_field_that_makes_no_cassette_line_is_named() -> None:
    texts = [
        CallTexts(tool="", args="{}", result="1"),
        CallTexts(tool="t", args="[1]", result="{bad"),
        CallTexts(tool="t", args="{", error_type="ValueError", result="3"),
        CallTexts(tool="t", error_message="no type"),
        CallTexts(tool="t", result=""),  # empty: null
    ]
    calls, problems = recorded_calls("c", texts)
    assert problems == {
        "0.tool": '"tool" must be the tool\'s name',
        "1.args": '"args" must be an object',
        "1.result": "invalid JSON: Expecting property name enclosed in double quotes "
        "(line 1, column 2)",
        "2.args": "invalid JSON: Expecting property name enclosed in double quotes "
        "(line 1, column 2)",
        "2.result": "a call that raised has no result: empty this, or the error's type",
        "3.error_type": "the error's type (ConnectionError), or no message",
    }
    assert calls[4].result is None and [c.call for c in calls] == [1, 2, 3, 4, 5]


def test_typing_in_one_field_is_one_undo_step_and_structure_steps_undo_too() -> None:
    draft = CallsDraft("c", [RecordedCall("c", 1, "a"), RecordedCall("c", 2, "b")])
    assert not draft.dirty
    assert draft.set_field(0, "result", '"x') and draft.set_field(0, "result", '"xy"')
    assert not draft.set_field(0, "result", '"xy"')
    draft.set_field(1, "tool", "bb")
    assert draft.move_call(1, -1) and not draft.move_call(0, -1)
    index = draft.add_call(0)
    assert index == 1 and [t.tool for t in draft.texts] == ["bb", "", "a"]
    draft.remove_call(0)
    assert [t.tool for t in draft.texts] == ["", "a"] and draft.dirty
    assert draft.undo() == ""  # the removal
    assert draft.undo() == ""  # the added call
    assert draft.undo() == ""  # the move
    assert draft.undo() == "1.tool"
    assert [t.tool for t in draft.texts] == ["a", "b"] and draft.texts[0].result == '"xy"'
    assert draft.undo() == "0.result" and not draft.dirty
    assert draft.undo() is None
    assert draft.redo() == "0.result" and draft.texts[0].result == '"xy"'
    draft.set_field(0, "tool", "z")  # a new edit drops what could be redone
    assert draft.redo() is None


def test_writing_keeps_the_other_cases_lines_byte_for_byte(cassette: Path) -> None:
    draft = CallsDraft("refund", case_calls(cassette, "refund"))
    draft.set_field(0, "result", '{"status": "lost"}')
    draft.remove_call(1)
    draft.write(cassette, ["other", "refund", "last"])
    lines = cassette.read_text(encoding="utf-8").splitlines()
    assert lines[0] == OTHER and lines[2] == CASSETTE.splitlines()[3]
    assert json.loads(lines[1]) == {
        "case": "refund",
        "call": 1,
        "tool": "lookup_order",
        "args": {"order_id": "A1"},
        "result": {"status": "lost"},
        "duration": 0.012,
    }
    assert not draft.dirty and not draft.changed_on_disk(cassette)
    assert [p.name for p in cassette.parent.iterdir()] == [cassette.name]  # no temporary left


def test_a_call_with_a_problem_writes_nothing(cassette: Path) -> None:
    draft = CallsDraft("refund", case_calls(cassette, "refund"))
    draft.set_field(1, "args", "{")
    with pytest.raises(ValueError, match=r"^call 2 args: invalid JSON"):
        draft.write(cassette, [])
    assert cassette.read_text(encoding="utf-8") == CASSETTE + "\n"
    assert draft.dirty


def test_a_case_recorded_again_meanwhile_is_seen(cassette: Path) -> None:
    draft = CallsDraft("refund", case_calls(cassette, "refund"))
    assert not draft.changed_on_disk(cassette)
    cassette.write_text(CASSETTE.replace('"shipped"', '"delivered"'), encoding="utf-8")
    assert draft.changed_on_disk(cassette)
    cassette.write_text("not json\n", encoding="utf-8")
    assert draft.changed_on_disk(cassette)  # unreadable counts as changed


def test_a_case_without_calls_left_keeps_no_line(cassette: Path) -> None:
    draft = CallsDraft("refund", case_calls(cassette, "refund"))
    draft.remove_call(0)
    draft.remove_call(0)
    draft.write(cassette, [])
    assert "refund" not in read_cassette(cassette)
    assert cassette.read_text(encoding="utf-8").splitlines() == [
        OTHER,
        CASSETTE.splitlines()[3],
    ]
