"""What a running case is doing now, from its events (steps in flight, repeats, durations)."""

from __future__ import annotations

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.runs.case_steps import StepsInFlight, clock_text
from tenxeval_tui.runs.event_lines import event_line
from tenxeval_tui.runs.live_run import LiveRun


def tool(event_type: EventType, call_id: str = "c1", **extra: object) -> EventModel:
    return EventModel(
        event=Event.TOOL_EXECUTION,
        event_type=event_type,
        node_name="get_weather",
        data={
            "function_name": "get_weather",
            "args": {"location": "Paris"},
            "tool_call_id": call_id,
        },
        **extra,  # type: ignore[arg-type]
    )


def model(event_type: EventType, event: Event = Event.NODE_EXECUTION) -> EventModel:
    return EventModel(event=event, event_type=event_type, node_name="MAIN")


def test_clock_text_is_hours_minutes_seconds() -> None:
    assert clock_text(4.9) == "0:00:04"
    assert clock_text(3725) == "1:02:05"
    assert clock_text(-1) == "0:00:00"


def test_the_latest_step_in_flight_is_current_and_ends_with_its_end_event() -> None:
    steps = StepsInFlight()
    assert steps.update(model(EventType.START, Event.LLM_CALL), now=10)
    assert steps.current is not None and steps.current.text(12) == "MAIN thinking 0:00:02"
    steps.update(model(EventType.END), now=13)
    assert steps.current is None
    steps.update(tool(EventType.START, "a"), now=20)
    steps.update(tool(EventType.START, "b"), now=21)
    assert len(steps) == 2
    steps.update(tool(EventType.END, "b"), now=22)
    current = steps.current
    assert current is not None
    assert current.text(24) == 'calling get_weather(location="Paris") 0:00:04'
    judging = EventModel(
        event=Event.GRAPH_EXECUTION,
        event_type=EventType.PROGRESS,
        data={"judging": ["response_match_score"]},
    )
    steps.update(judging, now=30)
    assert steps.current is not None and steps.current.label == "judging response_match_score"


def test_a_step_end_line_carries_its_duration() -> None:
    end = tool(EventType.END, timestamp=104.5, metadata={"started_at": 100.0})
    assert event_line(end).endswith("  [4.50s]")
    assert "[" not in event_line(tool(EventType.END)).replace('["', "")


def test_live_run_shows_starts_as_the_step_not_as_lines_and_numbers_repeats() -> None:
    now = [50.0]
    run = LiveRun(clock=lambda: now[0], slow_after=5)
    case = EvalCase(eval_id="paris")
    run.on_case_start("s", case)
    run.on_repeat_start("s", case, 0, 3)
    run.on_repeat_event("s", "paris", 0, tool(EventType.START))
    state = run.cases["s::paris"]
    assert len(state.events) == 0
    assert state.current_step is not None
    now[0] = 56.0
    assert state.is_slow(now[0], run.slow_after)
    run.on_repeat_event("s", "paris", 1, tool(EventType.END))
    assert state.current_step is None
    assert state.events[0].startswith("#2 ⚙ get_weather")
    run.on_repeat_end("s", "paris", EvalCaseResult(eval_id="paris", passed=True), 3)
    assert (state.repeats_done, state.repeats) == (1, 3)
    assert run.running_keys() == ["s::paris"]
