"""EventModel.to_dict: a plain event (the evaluator's own "judging" one, every case) is
made by hand, not by pydantic's dump; any event gives what model_dump(mode="json") gives."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import date
from enum import StrEnum
from typing import Any

import pytest

from tenxeval_tui.evaluation.events import Event, EventModel, EventType


class Colour(StrEnum):
    RED = "red"


class Loud(EventModel):
    pass


def judging() -> EventModel:
    return EventModel(
        event=Event.GRAPH_EXECUTION,
        event_type=EventType.PROGRESS,
        data={"judging": ["exact_match", "rubric"]},
        thread_id="eval-abc-000000000001",
        run_id="abc",
    )


def test_a_plain_event_is_not_dumped_by_pydantic(monkeypatch: pytest.MonkeyPatch) -> None:
    event = judging()
    expected = event.model_dump(mode="json", fallback=str)

    def no_dump(*_: Any, **__: Any) -> Any:
        raise AssertionError("dumped by pydantic")

    monkeypatch.setattr(EventModel, "model_dump", no_dump)
    made = event.to_dict()
    assert made == expected
    assert json.dumps(made) == json.dumps(expected)  # same keys, same order
    made["data"]["judging"].append("x")  # a copy: the event is left as it was
    assert event.data == {"judging": ["exact_match", "rubric"]}


# Factories, not events: no event may outlive its test (tests/runs/test_live_run.py
# counts the live ones).
EVENTS: list[Callable[[], EventModel]] = [
    judging,
    lambda: EventModel(event=Event.NODE_EXECUTION, data={"a": [1, True, None, {"b": "c"}]}),
    lambda: EventModel(event=Event.TOOL_EXECUTION, data={"x": 1.5, "y": math.nan}),
    lambda: EventModel(event=Event.TOOL_EXECUTION, data={"x": [1.5, -0.0, 1e300], "y": -2.0}),
    lambda: EventModel(event=Event.TOOL_EXECUTION, data={"x": [0.1, -math.inf]}),
    lambda: EventModel(event=Event.TOOL_EXECUTION, data={"when": date(2026, 1, 2), "t": (1,)}),
    lambda: EventModel(event=Event.TOOL_EXECUTION, data={"colour": Colour.RED, "s": {1}}),
    lambda: EventModel(event=Event.GRAPH_EXECUTION, metadata={"m": 1}),
    lambda: EventModel(event=Event.GRAPH_EXECUTION, timestamp=math.inf),
    lambda: EventModel(event=Event.GRAPH_EXECUTION, content_type="text"),  # type: ignore[call-arg]
    lambda: Loud(event=Event.GRAPH_EXECUTION, data={"a": "b"}),
]


@pytest.mark.parametrize("make", EVENTS)
def test_any_event_gives_pydantic_s_dump(make: Callable[[], EventModel]) -> None:
    event = make()
    expected = event.model_dump(mode="json", fallback=str)
    made = event.to_dict()
    assert json.dumps(made, default=str) == json.dumps(expected, default=str)
    assert list(made) == list(expected)


def test_data_changed_after_validation_is_dumped_as_pydantic_dumps_it() -> None:
    event = judging()
    event.data["n"] = [1, 2.5]
    event.data["e"] = Event.LLM_CALL
    expected = event.model_dump(mode="json", fallback=str)
    assert json.dumps(event.to_dict()) == json.dumps(expected)
