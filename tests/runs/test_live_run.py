"""The run view's live state keeps each event as the line it shows, never the event itself."""

from __future__ import annotations

import gc
import io

from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.observers import JsonLinesObserver, replay_json_lines
from tenxeval_tui.runs.live_run import LiveRun


def node(name: str, text: str, **data: object) -> EventModel:
    return EventModel(
        event=Event.NODE_EXECUTION,
        event_type=EventType.END,
        node_name=name,
        data={"response_text": text, **data},
    )


def streamed(events: list[EventModel]) -> LiveRun:
    """``events`` of case ``s::c`` written as the worker writes them, replayed into a LiveRun."""
    out = io.StringIO()
    writer = JsonLinesObserver(out.write)
    for event in events:
        writer.on_event("s", "c", event)
    live = LiveRun()
    assert replay_json_lines(out.getvalue().splitlines(), live) == len(events)
    return live


def test_every_event_of_a_case_is_kept_as_its_shown_line_in_order() -> None:
    live = streamed(
        [
            node("MAIN", "hello", token_usage={"input_tokens": 3, "output_tokens": 4}),
            EventModel(
                event=Event.TOOL_EXECUTION,
                event_type=EventType.END,
                node_name="tools",
                data={"function_name": "get_weather", "args": {"city": "Rome"}, "result": "sun"},
            ),
            node("MAIN", "line one\nline two \u202eevil"),
        ]
    )
    state = live.cases["s::c"]
    assert list(state.events) == [
        '▸ MAIN says "hello"  [tokens 3 in / 4 out]',
        '⚙ get_weather(city="Rome") → "sun"',
        '▸ MAIN says "line one ⏎ line two ⟦U+202E⟧evil"',  # one line, a bidi override shown
    ]
    assert state.events[1:] == list(state.events)[1:]
    assert state.tokens == 7 and live.events_received == 3


def test_no_event_model_outlives_its_line() -> None:
    live = streamed([node(f"N{i % 7}", f"step {i}") for i in range(500)])
    gc.collect()
    # type(), not isinstance(): isinstance also reads obj.__class__, which a lazy proxy left
    # by an earlier test (injectq's, of a 10xGraph service) resolves, and that can raise.
    alive = sum(1 for obj in gc.get_objects() if issubclass(type(obj), EventModel))
    assert len(live.cases["s::c"].events) == 500
    assert alive == 0  # the view keeps lines; the full events are in the reports and journal


def test_a_retried_case_starts_over_and_says_how_its_first_worker_died() -> None:
    """``case_retry`` (a worker died): the first run's lines are dropped, the second
    ``case_start`` runs the same case again, not a new one."""
    from tenxeval_tui.evaluation import EvalCase
    from tenxeval_tui.runs.live_run import CaseStatus

    out = io.StringIO()
    writer = JsonLinesObserver(out.write)
    case = EvalCase(eval_id="c", name="the case")
    writer.on_case_start("s", case)
    writer.on_event("s", "c", node("MAIN", "first run", token_usage={"input_tokens": 5}))
    writer.on_case_retry("s", "c", "worker 1 of 2 killed by signal 9 (SIGKILL)")
    lines = out.getvalue().splitlines()
    assert '"type": "case_retry"' in lines[-1]
    live = LiveRun()
    assert replay_json_lines(lines, live) == 3
    state = live.cases["s::c"]
    assert state.retried == "worker 1 of 2 killed by signal 9 (SIGKILL)"
    assert list(state.events) == [] and state.tokens == 0 and state.name == "the case"
    assert state.status == CaseStatus.QUEUED and len(live.cases) == 1
    writer.on_case_start("s", case)
    writer.on_event("s", "c", node("MAIN", "second run"))
    replay_json_lines(out.getvalue().splitlines()[3:], live)
    state = live.cases["s::c"]
    assert list(state.events) == ['▸ MAIN says "second run"']
    assert state.status == CaseStatus.RUNNING and state.retried is not None


def test_the_workbench_s_decoder_passes_a_retry_on() -> None:
    """The run view reads the worker's lines through ``worker_process.decode``: a
    ``case_retry`` line reaches its live state as a call, as every other observer line."""
    from tenxeval_tui.evaluation import EvalCase
    from tenxeval_tui.runs.worker_process import decode

    out = io.StringIO()
    writer = JsonLinesObserver(out.write)
    writer.on_case_start("s", EvalCase(eval_id="c", name="the case"))
    writer.on_case_retry("s", "c", "Ray actor 2 of 2 died (ActorDiedError)")
    calls = [call for line in out.getvalue().splitlines() for call in decode(line.encode())]
    assert [name for name, _ in calls] == ["on_case_start", "on_case_retry"]
    live = LiveRun()
    for name, args in calls:
        getattr(live, name)(*args)
    assert live.cases["s::c"].retried == "Ray actor 2 of 2 died (ActorDiedError)"


def test_the_changed_cases_come_in_table_order_when_few_of_many_changed() -> None:
    """``take_dirty`` gives the changed cases in table order, a few of many as all of them,
    and a case listed after its places were worked out takes its place at the end."""
    live = LiveRun()
    cases = [[f"c{i:03d}", f"case {i}"] for i in range(100)]
    live.on_worker_line(
        {"type": "worker_plan", "eval_sets": [{"eval_set_id": "s", "cases": cases}]}
    )
    assert live.take_dirty() == [f"s::c{i:03d}" for i in range(100)]
    live.dirty.update({"s::c090", "s::c005", "s::c042"})
    assert live.take_dirty() == ["s::c005", "s::c042", "s::c090"]
    live._case("t", "late")  # listed by its start: after every planned case
    live.dirty.update({"s::c007", "s::c001"})
    assert live.take_dirty() == ["s::c001", "s::c007", "t::late"]
    live.dirty.update({"s::c003", "gone::x"})  # a key no case has is left out
    assert live.take_dirty() == ["s::c003"]
    assert live.take_dirty() == []
