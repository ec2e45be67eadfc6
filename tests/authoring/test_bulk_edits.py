"""Bulk edits of many cases: each operation, and one undo step for all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.authoring.bulk_edits import BulkEdit, BulkEditError, BulkOperation
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall


@pytest.fixture
def document(tmp_path: Path) -> EvalSetDocument:
    path = tmp_path / "w.evalset.json"
    (
        EvalSetBuilder("w")
        .add_case(
            "Weather in London?",
            "Sunny in London.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London"})],
            case_id="london",
            tags=["smoke"],
        )
        .add_multi_turn([("Hi", "Hello!"), ("Paris?", "Sunny in Paris.")], case_id="paris")
        .save(path)
    )
    return EvalSetDocument.load(path)


def _apply(document: EvalSetDocument, edit: BulkEdit) -> list[int]:
    uids = [case.uid for case in document.cases]
    return document.replace_cases({uid: edit.apply(document.case(uid).data) for uid in uids})


def test_a_tag_added_to_every_case_is_one_undo_step(document: EvalSetDocument) -> None:
    changed = _apply(document, BulkEdit(BulkOperation.ADD_TAG, "regression"))
    assert len(changed) == 2
    assert [c.data["tags"] for c in document.cases] == [["smoke", "regression"], ["regression"]]
    assert document.dirty
    document.undo()
    assert [c.data["tags"] for c in document.cases] == [["smoke"], []]
    assert not document.dirty
    document.redo()
    assert [c.data["tags"] for c in document.cases] == [["smoke", "regression"], ["regression"]]


def test_removing_a_tag_leaves_cases_without_it_alone(document: EvalSetDocument) -> None:
    changed = _apply(document, BulkEdit(BulkOperation.REMOVE_TAG, "smoke"))
    assert changed == [document.cases[0].uid]
    assert document.cases[0].data["tags"] == []


def test_set_tool_call_updates_calls_of_that_name_or_adds_one_to_the_last_turn(
    document: EvalSetDocument,
) -> None:
    _apply(document, BulkEdit(BulkOperation.SET_TOOL_CALL, "get_weather", '{"city": "Rome"}'))
    london, paris = (c.data["conversation"] for c in document.cases)
    assert [(c["name"], c["args"]) for c in london[0]["expected_tool_trajectory"]] == [
        ("get_weather", {"city": "Rome"})
    ]
    assert paris[0]["expected_tool_trajectory"] == []
    assert [(c["name"], c["args"]) for c in paris[1]["expected_tool_trajectory"]] == [
        ("get_weather", {"city": "Rome"})
    ]


def test_clear_tool_call_removes_it_from_every_turn(document: EvalSetDocument) -> None:
    _apply(document, BulkEdit(BulkOperation.CLEAR_TOOL_CALL, "get_weather"))
    london = document.cases[0].data["conversation"][0]
    assert london["expected_tool_trajectory"] == []


def test_replace_in_replies_changes_only_expected_replies(document: EvalSetDocument) -> None:
    changed = _apply(document, BulkEdit(BulkOperation.REPLACE_IN_REPLIES, "Sunny", "Cloudy"))
    assert len(changed) == 2
    replies = [
        turn["expected_final_response"]["content"]
        for case in document.cases
        for turn in case.data["conversation"]
    ]
    assert replies == ["Cloudy in London.", "Hello!", "Cloudy in Paris."]
    assert document.cases[0].data["conversation"][0]["user_content"]["content"] == (
        "Weather in London?"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (BulkEdit(BulkOperation.ADD_TAG, " "), "type the tag or the tool's name first"),
        (
            BulkEdit(BulkOperation.SET_TOOL_CALL, "t", "{bad"),
            "args: invalid JSON: Expecting property name enclosed in double quotes",
        ),
        (BulkEdit(BulkOperation.SET_TOOL_CALL, "t", "[1]"), "args: must be a JSON object ({...})"),
        (BulkEdit(BulkOperation.REPLACE_IN_REPLIES, ""), "type the text to replace first"),
    ],
)
def test_text_that_cannot_be_used_says_why(edit: BulkEdit, message: str) -> None:
    with pytest.raises(BulkEditError) as raised:
        edit.check()
    assert str(raised.value) == message


def test_an_edit_that_changes_nothing_is_no_undo_step(document: EvalSetDocument) -> None:
    assert _apply(document, BulkEdit(BulkOperation.REMOVE_TAG, "absent")) == []
    assert not document.can_undo
