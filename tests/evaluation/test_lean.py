"""Per-event models built lean (evaluation/lean.py) are the validated models, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from tenxeval_tui.evaluation import (
    Event,
    EventModel,
    StepType,
    TrajectoryCollector,
    TrajectoryStep,
)
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, NodeDetail
from tenxeval_tui.evaluation.execution.result import NodeResponseData
from tenxeval_tui.evaluation.lean import token_usage, trusted
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs
from tenxeval_tui.evaluation.results.node_views import node_detail, node_response_dict
from tenxeval_tui.evaluation.token_usage import TokenUsage

MESSAGES = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]


def node_event(name: str, **data: object) -> EventModel:
    return EventModel(event=Event.NODE_EXECUTION, node_name=name, data=dict(data))


def validated_twins(event: EventModel) -> tuple[TrajectoryStep, NodeResponseData]:
    """What the collector made of ``event`` before it built its models lean."""
    data = event.data
    step = TrajectoryStep(
        step_type=StepType.NODE,
        name=event.node_name,
        timestamp=event.timestamp,
        metadata={"step": data["step"]} if "step" in data else {},
    )
    has_tool_calls = bool(data.get("has_tool_calls", False))
    response = NodeResponseData(
        node_name=event.node_name,
        input_messages=list(data.get("input_messages") or []),
        response_text=str(data.get("response_text") or ""),
        has_tool_calls=has_tool_calls,
        tool_call_names=list(data.get("tool_call_names") or []),
        is_final=bool(data.get("is_final", not has_tool_calls)),
        timestamp=event.timestamp,
        token_usage=TokenUsage.model_validate(data.get("token_usage") or {}),
    )
    return step, response


# As (node name, data): the events are made in each test (tests elsewhere count the
# EventModel objects alive in the process).
EVENTS: list[tuple[str, dict[str, object]]] = [
    ("plain", {"response_text": "step 1"}),
    (
        "model",
        {
            "step": 3,
            "input_messages": MESSAGES,
            "response_text": "calling",
            "has_tool_calls": True,
            "tool_call_names": ["search", "lookup"],
            "token_usage": {"input_tokens": 12, "output_tokens": 5},
        },
    ),
    (
        "final",
        {"response_text": "done", "is_final": True, "token_usage": {"cache_read_tokens": 2}},
    ),
]


@pytest.mark.parametrize(("name", "data"), EVENTS, ids=[name for name, _ in EVENTS])
def test_the_collectors_steps_and_responses_equal_their_validated_twins(
    name: str, data: dict[str, object]
) -> None:
    event = node_event(name, **data)
    collector = TrajectoryCollector()
    collector.on_event_sync(event)
    step, response = validated_twins(event)
    assert collector.trajectory == [step]
    assert collector.node_responses == [response]
    assert collector.trajectory[0].model_dump_json() == step.model_dump_json()
    assert collector.node_responses[0].model_dump_json() == response.model_dump_json()
    # The case result's views of the node: as model_dump and validation made them.
    made = collector.node_responses[0]
    assert node_response_dict(made) == response.model_dump(mode="json")
    assert json.dumps(node_response_dict(made)) == json.dumps(response.model_dump(mode="json"))
    twin = NodeDetail(
        node_name=response.node_name,
        input_messages=response.input_messages,
        response_text=response.response_text,
        token_usage=response.token_usage,
        timestamp=response.timestamp,
    )
    assert node_detail(made).model_dump_json() == twin.model_dump_json()


def test_a_message_that_is_not_a_dict_is_refused_as_validation_refuses_it() -> None:
    collector = TrajectoryCollector()
    with pytest.raises(ValueError, match="input_messages holds a str, not a dict"):
        collector.on_event_sync(node_event("model", input_messages=["hello"], response_text="x"))
    with pytest.raises(ValidationError):
        validated_twins(node_event("model", input_messages=["hello"]))


def test_token_usages_are_shared_per_count_and_validated_when_unusual() -> None:
    first = token_usage({"input_tokens": 3, "output_tokens": 4})
    assert first is token_usage({"output_tokens": 4, "input_tokens": 3})
    assert first == TokenUsage(input_tokens=3, output_tokens=4)
    assert token_usage(None) is token_usage({}) is token_usage({"input_tokens": 0})
    assert token_usage({"input_tokens": "7"}) == TokenUsage(input_tokens=7)  # coerced as before
    with pytest.raises(ValidationError):
        token_usage({"input_tokens": "many"})
    with pytest.raises(ValidationError):  # frozen: a shared instance cannot be changed
        first.input_tokens = 99  # type: ignore[misc]


def test_a_trusted_model_behaves_as_a_validated_one() -> None:
    values = {
        "step_type": StepType.NODE,
        "name": "n",
        "args": {},
        "timestamp": 1.5,
        "metadata": {},
    }
    one = trusted(TrajectoryStep, dict(values))
    two = trusted(TrajectoryStep, dict(values))
    assert one == TrajectoryStep(step_type="node", name="n", timestamp=1.5)
    one.name = "renamed"  # assignment works, and touches only this instance
    one.note = "extra"  # an unknown attribute is kept, as extra="allow" keeps it
    assert (two.name, one.model_dump()["note"]) == ("n", "extra")
    assert "note" not in two.model_dump() and not two.model_extra  # one's extra is its own
    assert two == TrajectoryStep(step_type="node", name="n", timestamp=1.5)
    assert one.model_fields_set == two.model_fields_set == set(TrajectoryStep.model_fields)
    assert one.model_copy(update={"name": "copy"}).name == "copy"


def test_a_case_result_in_the_journal_reads_back_equal(tmp_path: Path) -> None:
    collector = TrajectoryCollector()
    for name, data in EVENTS:
        collector.on_event_sync(node_event(name, **data))
    execution = collector.to_execution_result()
    result = EvalCaseResult(eval_id="c1", passed=True, metadata={"eval_set_id": "s"})
    result.actual_trajectory = execution.trajectory
    result.node_responses = [node_response_dict(n) for n in execution.node_responses]
    result.node_details = [node_detail(n) for n in execution.node_responses]
    lone = EvalCaseResult(
        eval_id="c2", passed=False, error="bad \ud800 text", metadata={"eval_set_id": "s"}
    )
    deep = result.model_copy(update={"eval_id": "c3"})
    deep.node_visits = [f"n{i}" for i in range(2_000)] + ["bad \ud800"]  # found part way
    journal = RunJournal(tmp_path / "run.jsonl")
    journal.on_case_end(result)
    journal.on_case_end(lone)  # UTF-8 cannot hold it: written the old way, escaped
    journal.on_case_end(deep)  # what was written of it is taken back first
    journal.on_case_end(result.model_copy(update={"eval_id": "c4"}))
    (back,) = read_journal_runs(tmp_path / "run.jsonl")
    assert [r.eval_id for r in back.results] == ["c1", "c2", "c3", "c4"]
    assert back.results[0] == EvalCaseResult.model_validate(result.model_dump(mode="json"))
    assert back.results[0].model_dump_json() == result.model_dump_json()
    assert back.results[1].error == "bad \ud800 text"
    assert back.results[2].node_visits[-1] == "bad \ud800"
    assert len((tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_node_names_are_shared_and_the_cache_stays_bounded() -> None:
    from tenxeval_tui.evaluation import lean

    first, second = "".join(["no", "de"]), "".join(["n", "ode"])
    assert first is not second
    assert lean.shared_name(first) is lean.shared_name(second) is first
    for index in range(lean._NAMES_CACHE_SIZE + 10):
        lean.shared_name(f"made-up-{index}")
    assert len(lean._NAMES) <= lean._NAMES_CACHE_SIZE


def test_a_lean_node_detail_and_node_response_take_extra_attributes_too() -> None:
    node = trusted(NodeResponseData, {**NodeResponseData().__dict__})
    node.note = 1  # type: ignore[attr-defined]
    detail = node_detail(NodeResponseData())
    detail.note = 2  # type: ignore[attr-defined]
    assert (node.model_dump()["note"], detail.model_dump()["note"]) == (1, 2)
    assert node_detail(NodeResponseData()).model_extra is None  # none made until needed
