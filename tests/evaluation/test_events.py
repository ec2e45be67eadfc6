"""Events: 10xGraph's shape, JSON both ways."""

from __future__ import annotations

import json

from tenxeval_tui.evaluation import Event, EventModel, EventType


def test_event_round_trips_through_json() -> None:
    event = EventModel(
        event=Event.TOOL_EXECUTION,
        event_type=EventType.END,
        node_name="get_weather",
        data={"function_name": "get_weather", "args": {"location": "Paris"}, "result": "sunny"},
        thread_id="t-1",
        run_id="r-1",
    )
    line = event.to_json()
    assert "\n" not in line
    assert EventModel.from_json(line) == event
    assert EventModel.from_dict(json.loads(line)) == event


def test_unknown_fields_survive_and_ids_become_text() -> None:
    # A 10xGraph event dump: integer thread id, extra fields such as content_type.
    raw = {
        "event": "node_execution",
        "event_type": "end",
        "node_name": "MAIN",
        "thread_id": 7,
        "content_type": ["message"],
    }
    event = EventModel.from_dict(raw)
    assert event.thread_id == "7"
    assert event.event is Event.NODE_EXECUTION
    assert event.to_dict()["content_type"] == ["message"]


def test_data_that_is_not_json_is_written_as_text() -> None:
    class Opaque:
        def __str__(self) -> str:
            return "<opaque>"

    event = EventModel(event=Event.TOOL_EXECUTION, data={"result": Opaque()})
    assert json.loads(event.to_json())["data"]["result"] == "<opaque>"
