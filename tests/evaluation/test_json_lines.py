"""JsonLinesObserver's lines: the text json.JSONEncoder(default=str) writes, one encoder
for every line."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tenxeval_tui.evaluation import Event, EventModel, EventType, JsonLinesObserver
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase


class _Opaque:
    def __str__(self) -> str:
        return "opaque <thing>"


def _written(data: dict[str, Any]) -> str:
    lines: list[str] = []
    JsonLinesObserver(lines.append)._emit(data)
    (line,) = lines
    return line


@pytest.mark.parametrize(
    "data",
    [
        {"type": "event", "text": 'caf\u00e9 \u2603 \ud83d\ude00 "quoted" \\ \n\t\x01'},
        {"numbers": [0, -1, 2**70, 0.1, 1e-05, 1e16, -0.0, math.inf, -math.inf]},
        {"nested": {"a": [{"b": None, "c": True}], "": {}}, "tuple": (1, "2")},
        {"not json": _Opaque(), "key": {1: "int key", None: "none key", 2.5: "float key"}},
    ],
)
def test_a_line_is_the_text_the_json_encoder_writes(data: dict[str, Any]) -> None:
    assert _written(data) == json.JSONEncoder(default=str).encode(data) + "\n"


def test_nan_is_written_as_the_json_encoder_writes_it() -> None:
    assert _written({"score": math.nan}) == '{"score": NaN}\n'


def test_lines_are_encoded_by_one_encoder_not_one_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # JSONEncoder.encode made json's C encoder anew for each line: a third of encoding
    # the small lines every case writes (its case_start, its "judging" event).
    made: list[object] = []
    real = getattr(json.encoder, "c_make_encoder", None)
    assert real is not None

    def counting(*args: Any) -> Any:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(json.encoder, "c_make_encoder", counting)
    lines: list[str] = []
    observer = JsonLinesObserver(lines.append)
    case = EvalCase.single_turn("c1", "hello", "hi")
    event = EventModel(
        event=Event.GRAPH_EXECUTION, event_type=EventType.PROGRESS, data={"judging": ["x"]}
    )
    for _ in range(3):
        observer.on_case_start("s", case)
        observer.on_event("s", "c1", event)
    assert len(lines) == 6 and made == []
    assert json.loads(lines[0])["turns"] == ["hello"]
    assert json.loads(lines[1])["event"]["data"] == {"judging": ["x"]}
