"""10xGraph graphs as targets: real graphs, the real callback manager, many apps per process."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from injectq import InjectQ
from tenxgraph.core.state.message import Message
from tenxgraph.utils.callbacks import CallbackContext, CallbackManager, InvocationType

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    Event,
    EventCollector,
    EventType,
    PublisherCallback,
    StepType,
    TrajectoryCollector,
    create_eval_app,
    make_trajectory_callback,
)
from tests.waiting import wait_async


def ask(text: str) -> dict[str, Any]:
    return {"messages": [Message.text_message(text, role="user")]}


async def test_records_every_node_with_tool_args_results_and_tokens() -> None:
    app, collector = create_eval_app(build_graph())
    await app.ainvoke(ask("What is the weather in Paris?"), {"thread_id": "t1"})

    assert collector.node_visits == ["MAIN", "TOOL", "MAIN"]
    assert [(s.step_type, s.name) for s in collector.trajectory] == [
        (StepType.NODE, "MAIN"),
        (StepType.NODE, "TOOL"),
        (StepType.TOOL, "get_weather"),
        (StepType.NODE, "MAIN"),
    ]
    assert [(c.name, c.args, c.result) for c in collector.tool_calls] == [
        ("get_weather", {"location": "Paris"}, "sunny, 21°C")
    ]
    assert collector.final_response == "The weather in Paris is sunny, 21°C."
    main_calls = collector.node_responses
    assert [n.node_name for n in main_calls] == ["MAIN", "MAIN"]
    assert main_calls[0].has_tool_calls and main_calls[0].tool_call_names == ["get_weather"]
    assert main_calls[1].is_final
    assert all(n.token_usage.input_tokens > 0 for n in main_calls)
    assert {e.thread_id for e in collector.events} == {"t1"}


async def test_a_tool_that_raises_is_recorded_with_its_error() -> None:
    app, collector = create_eval_app(build_graph())
    await app.ainvoke(ask("What is the weather in Atlantis?"), {"thread_id": "t1"})
    (call,) = collector.tool_calls
    assert call.args == {"location": "Atlantis"}
    (step,) = collector.get_trajectory_steps(StepType.TOOL)
    assert step.metadata["error"] == "ValueError: no weather station in Atlantis"
    assert collector.node_visits == ["MAIN", "TOOL", "MAIN"]


def test_a_compiled_graph_is_refused_with_a_hint() -> None:
    with pytest.raises(AttributeError, match="uncompiled StateGraph"):
        create_eval_app(build_graph().compile())


async def test_publisher_callback_on_a_callback_manager_as_documented() -> None:
    events = EventCollector()
    callback = PublisherCallback(events, config={"thread_id": "run-1", "run_id": "r"})
    manager = CallbackManager()
    manager.register_after_invoke(InvocationType.AI, callback)
    manager.register_after_invoke(InvocationType.TOOL, callback)
    # A hand-compiled graph needs a container of its own: in 10xGraph's shared one
    # the first graph ever compiled keeps every callback.
    with InjectQ().context():
        app = build_graph().compile(callback_manager=manager)
        await app.ainvoke(ask("What is the weather in Rome?"), {"thread_id": "other"})

    assert [e.event for e in events.events] == [
        Event.NODE_EXECUTION,
        Event.TOOL_EXECUTION,
        Event.NODE_EXECUTION,
    ]
    assert {(e.thread_id, e.run_id) for e in events.events} == {("run-1", "r")}
    tool = events.filter_by_event(Event.TOOL_EXECUTION)[0]
    assert tool.data["args"] == {"location": "Rome"} and tool.data["result"] == "sunny, 26°C"


async def test_many_apps_in_one_process_each_capture_their_own_events() -> None:
    # Graphs compiled before, between and after ours, with and without callbacks,
    # share 10xGraph's dependency container; ours must not care.
    build_graph().compile()
    app_a, collector_a = create_eval_app(build_graph())
    stray = TrajectoryCollector()
    _, manager = make_trajectory_callback(stray)
    build_graph().compile(callback_manager=manager)
    app_b, collector_b = create_eval_app(build_graph())
    plain_after = build_graph().compile()

    await asyncio.gather(
        app_a.ainvoke(ask("What is the weather in Oslo?"), {"thread_id": "a"}),
        app_b.ainvoke(ask("What is the weather in Tokyo?"), {"thread_id": "b"}),
        plain_after.ainvoke(ask("What is the weather in Rome?"), {"thread_id": "p"}),
    )
    await app_a.ainvoke(ask("What is the weather in Berlin?"), {"thread_id": "a2"})

    assert [c.args["location"] for c in collector_a.tool_calls] == ["Oslo", "Berlin"]
    assert [c.args["location"] for c in collector_b.tool_calls] == ["Tokyo"]
    assert collector_a.node_visits == ["MAIN", "TOOL", "MAIN"] * 2
    assert collector_b.node_visits == ["MAIN", "TOOL", "MAIN"]
    assert stray.tool_calls == []


async def test_sync_invoke_also_runs_in_the_apps_own_container() -> None:
    app, collector = create_eval_app(build_graph())
    build_graph().compile()  # a later graph takes over the shared container
    await asyncio.to_thread(app.invoke, ask("What is the weather in London?"), {"thread_id": "s"})
    assert collector.get_tool_names() == ["get_weather"]


async def test_two_tool_calls_of_one_tool_node_run_are_one_visit() -> None:
    app, collector = create_eval_app(build_graph())
    await app.ainvoke(ask("What is the weather in Paris and in Oslo?"), {"thread_id": "t"})
    assert collector.node_visits == ["MAIN", "TOOL", "MAIN"]
    assert [c.args["location"] for c in collector.tool_calls] == ["Paris", "Oslo"]
    assert collector.final_response == (
        "The weather in Paris is sunny, 21°C. The weather in Oslo is snowing, -3°C."
    )


@pytest.mark.parametrize(
    ("invocation_type", "expected"),
    [
        (InvocationType.MCP, [Event.TOOL_EXECUTION]),
        (InvocationType.TOOL, [Event.TOOL_EXECUTION]),
        (InvocationType.INPUT_VALIDATION, []),
        (InvocationType.SKILL, []),
    ],
)
async def test_publisher_callback_event_per_invocation_type(
    invocation_type: InvocationType, expected: list[Event]
) -> None:
    events = EventCollector()
    callback = PublisherCallback(events)  # no fixed ids: the run's own config stamps them
    context = CallbackContext(
        invocation_type=invocation_type,
        node_name="ToolNode",
        function_name="search",
        metadata={
            "tool_call_id": "c9",
            "config": {"thread_id": "th", "run_id": "ru", "_node_name": "TOOLS"},
        },
    )
    output = await callback(context, {"q": "x", "tool_call_id": "c9"}, {"hits": 2})
    assert output == {"hits": 2}  # the output passes through unchanged
    assert [e.event for e in events.events] == expected
    if expected:
        (event,) = events.events
        assert (event.thread_id, event.run_id, event.node_name) == ("th", "ru", "search")
        assert event.data["result"] == {"hits": 2}
        assert event.data["tool_call_id"] == "c9"
        assert event.data["graph_node"] == "TOOLS"


async def test_user_services_are_kept_but_not_another_graphs_publisher() -> None:
    from tenxgraph.runtime.publisher.base_publisher import BasePublisher

    class Sink(BasePublisher):
        def __init__(self) -> None:
            super().__init__(config={})
            self.events: list[object] = []

        async def publish(self, event: object) -> None:
            self.events.append(event)

        async def close(self) -> None:
            return None

        def sync_close(self) -> None:
            return None

    class Greeting:
        text = "Welcome"

    sink = Sink()
    with InjectQ().context():
        shared = InjectQ.get_instance()
        shared.bind_instance(BasePublisher, sink, allow_concrete=True)  # another graph's
        shared.bind_instance(Greeting, Greeting())  # the user's own service
        graph = build_graph()
        app, collector = create_eval_app(graph)
    await app.ainvoke(ask("What is the weather in Oslo?"), {"thread_id": "t"})
    # 10xGraph publishes in background tasks: wait for the tool call to be collected.
    await wait_async(lambda: collector.get_tool_names(), lambda: asyncio.sleep(0.01))
    assert collector.get_tool_names() == ["get_weather"]
    assert sink.events == []
    assert isinstance(graph._container.get(Greeting), Greeting)


async def test_publisher_callback_publishes_10xgraphs_own_event_model() -> None:
    from tenxgraph.runtime.publisher.events import ContentType
    from tenxgraph.runtime.publisher.events import EventModel as TxEventModel

    class RawPublisher:  # any 10xGraph-style publisher: keeps what it is given
        def __init__(self) -> None:
            self.published: list[Any] = []

        async def publish(self, event: Any) -> None:
            self.published.append(event)

    raw = RawPublisher()
    callback = PublisherCallback(raw, config={"thread_id": "t", "run_id": "r"})
    manager = CallbackManager()
    manager.register_after_invoke(InvocationType.AI, callback)
    manager.register_after_invoke(InvocationType.TOOL, callback)
    with InjectQ().context():
        app = build_graph().compile(callback_manager=manager)
        await app.ainvoke(ask("What is the weather in Rome?"), {"thread_id": "other"})

    assert all(isinstance(e, TxEventModel) for e in raw.published)
    assert [e.content_type for e in raw.published] == [
        [ContentType.TOOL_CALL],
        [ContentType.TOOL_RESULT],
        [ContentType.TEXT],
    ]
    # Our collector takes 10xGraph's events back as its own, content_type kept.
    collector = TrajectoryCollector()
    for event in raw.published:
        await collector.publish(event)
    assert collector.node_visits == ["MAIN", "MAIN"]
    assert [c.name for c in collector.tool_calls] == ["get_weather"]
    kept = EventCollector()
    await kept.publish(raw.published[1])
    assert kept.events[0].event == Event.TOOL_EXECUTION
    assert kept.events[0].model_dump()["content_type"] == ["tool_result"]


async def test_each_model_and_tool_call_is_announced_and_its_end_says_when_it_started() -> None:
    app, collector = create_eval_app(build_graph())
    await app.ainvoke(ask("What is the weather in Paris?"), {"thread_id": "t1"})
    kinds = [(e.event, e.event_type, e.node_name) for e in collector.events]
    assert kinds[:2] == [
        (Event.LLM_CALL, EventType.START, "MAIN"),
        (Event.NODE_EXECUTION, EventType.END, "MAIN"),
    ]
    (tool_start,) = [
        e for e in collector.events if e.event == Event.TOOL_EXECUTION and e.event_type == "start"
    ]
    assert tool_start.data["function_name"] == "get_weather"
    assert tool_start.data["args"]["location"] == "Paris"
    assert tool_start.data["tool_call_id"]
    ends = [
        e
        for e in collector.events
        if e.event_type == EventType.END and not e.data.get("visit_only")
    ]
    # Every model and tool call's end event says when it started, no later than it ended.
    assert len(ends) == 3
    for end in ends:
        assert end.metadata["started_at"] <= end.timestamp
    # The announcements change nothing the trajectory holds.
    assert collector.node_visits == ["MAIN", "TOOL", "MAIN"]
    assert len(collector.tool_calls) == 1


async def test_a_turns_message_id_comes_from_the_apps_own_id_generator() -> None:
    from tenxgraph.core.graph import StateGraph
    from tenxgraph.utils.id_generator import IntIDGenerator

    from tenxeval_tui.evaluation.targets import turn_input

    class Numbered(IntIDGenerator):
        def generate(self) -> int:
            return 4242

    graph = build_graph()
    graph._id_generator = Numbered()  # what StateGraph(id_generator=...) keeps
    app, _ = create_eval_app(graph)
    StateGraph()  # a graph built later: the shared container now has its generator

    (message,) = turn_input(app, "hi")["messages"]
    assert message.message_id == 4242
    (plain,) = turn_input(object(), "hi")["messages"]  # not a graph: a plain message
    assert plain == {"role": "user", "content": "hi"}
