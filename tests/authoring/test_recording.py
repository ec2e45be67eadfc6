"""A recorded chat made into a case: every part, or only those chosen."""

from __future__ import annotations

from tenxeval_tui.authoring.recording import (
    RecordedTurn,
    RecordParts,
    case_from_recording,
    free_eval_id,
    user_messages,
)
from tenxeval_tui.evaluation import EvalCase

TURNS = [
    RecordedTurn.from_line(
        {
            "user": "Weather in Paris?",
            "reply": "Sunny.",
            "tool_calls": [{"name": "get_weather", "args": {"location": "Paris"}, "result": "x"}],
            "nodes": ["MAIN", "TOOL", "MAIN"],
            "error": None,
        }
    ),
    RecordedTurn.from_line({"user": "crash", "reply": "", "error": "RuntimeError: down"}),
]


def test_every_part_of_every_turn_is_expected_by_default() -> None:
    data = case_from_recording(TURNS, RecordParts(), "recorded_1")
    case = EvalCase.model_validate(data)  # a valid case, shaped as the models write one
    first, second = case.conversation
    assert first.user_content.get_text() == "Weather in Paris?"
    assert first.expected_final_response is not None
    assert first.expected_final_response.get_text() == "Sunny."
    assert [(c.name, c.args, c.result) for c in first.expected_tool_trajectory] == [
        ("get_weather", {"location": "Paris"}, None)  # the result is not expected
    ]
    assert first.expected_node_order == ["MAIN", "TOOL", "MAIN"]
    assert second.expected_final_response is None  # the failed turn has no reply
    assert TURNS[1].error == "RuntimeError: down"


def test_only_the_chosen_parts_are_expected() -> None:
    data = case_from_recording(TURNS, RecordParts(replies=False, args=False, nodes=False), "r")
    turn = data["conversation"][0]
    assert turn["expected_final_response"] is None
    assert turn["expected_node_order"] == []
    assert [(c["name"], c["args"]) for c in turn["expected_tool_trajectory"]] == [
        ("get_weather", {})
    ]
    none = case_from_recording(TURNS, RecordParts(tool_calls=False), "r")
    assert none["conversation"][0]["expected_tool_trajectory"] == []


def test_a_free_eval_id_skips_the_taken_ones() -> None:
    assert free_eval_id(["recorded_1", "recorded_2", "x"]) == "recorded_3"
    assert free_eval_id([]) == "recorded_1"


def test_user_messages_of_a_case_in_order() -> None:
    data = case_from_recording(TURNS, RecordParts(), "r")
    assert user_messages(data) == ["Weather in Paris?", "crash"]
