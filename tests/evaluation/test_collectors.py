"""Collectors: raw events with live subscriptions, trajectories, per-case capture."""

from __future__ import annotations

import asyncio
import threading

from tenxeval_tui.evaluation import (
    Event,
    EventCollector,
    EventModel,
    EventType,
    StepType,
    TrajectoryCollector,
)
from tests.waiting import scaled


def node_event(name: str, **data: object) -> EventModel:
    return EventModel(event=Event.NODE_EXECUTION, node_name=name, data=dict(data))


def tool_event(
    name: str, args: dict[str, object], result: object = None, **extra: object
) -> EventModel:
    data = {"function_name": name, "args": args, "result": result, **extra}
    return EventModel(event=Event.TOOL_EXECUTION, node_name=name, data=data)


async def test_event_collector_filters_and_counts() -> None:
    collector = EventCollector()
    await collector.on_event(node_event("MAIN"))
    collector.on_event_sync(tool_event("get_weather", {"location": "Oslo"}))
    collector.on_event_sync(
        EventModel(event=Event.GRAPH_EXECUTION, event_type=EventType.START, node_name="MAIN")
    )
    assert len(collector) == 3
    assert [e.node_name for e in collector.filter_by_event(Event.TOOL_EXECUTION)] == ["get_weather"]
    assert len(collector.filter_by_event_type(EventType.START)) == 1
    assert len(collector.filter_by_node("MAIN")) == 2
    collector.reset()
    assert len(collector) == 0


async def test_subscription_sees_every_event_in_order_while_produced() -> None:
    collector = EventCollector()
    collector.on_event_sync(node_event("before"))
    subscription = collector.subscribe()

    async def produce() -> None:
        for index in range(200):
            await collector.on_event(node_event(f"n{index}"))
            if index % 7 == 0:
                await asyncio.sleep(0)
        collector.close()

    seen: list[str] = []

    async def consume() -> None:
        async for event in subscription:
            seen.append(event.node_name)

    await asyncio.gather(consume(), produce())
    assert seen == ["before"] + [f"n{index}" for index in range(200)]


async def test_subscription_without_replay_and_from_another_thread() -> None:
    collector = EventCollector()
    collector.on_event_sync(node_event("old"))
    subscription = collector.subscribe(replay=False)

    def produce() -> None:
        for index in range(50):
            collector.on_event_sync(node_event(f"t{index}"))
        collector.close()

    thread = threading.Thread(target=produce)
    seen: list[str] = []

    async def consume() -> None:
        async for event in subscription:
            seen.append(event.node_name)

    consumer = asyncio.create_task(consume())
    await asyncio.sleep(0)
    thread.start()
    await asyncio.wait_for(consumer, timeout=scaled(5))
    thread.join()
    assert seen == [f"t{index}" for index in range(50)]


async def test_trajectory_from_node_tool_and_graph_events() -> None:
    collector = TrajectoryCollector(capture_all_events=True)
    collector.on_event_sync(
        node_event(
            "MAIN",
            response_text="",
            has_tool_calls=True,
            tool_call_names=["get_weather"],
            input_messages=[{"role": "user", "content": "Weather in Oslo?"}],
            token_usage={"input_tokens": 10, "output_tokens": 3},
        )
    )
    # START parks the call; END completes it with the START's arguments.
    collector.on_event_sync(
        EventModel(
            event=Event.TOOL_EXECUTION,
            event_type=EventType.START,
            data={
                "function_name": "get_weather",
                "args": {"location": "Oslo"},
                "tool_call_id": "c1",
            },
        )
    )
    collector.on_event_sync(
        tool_event("get_weather", {}, "snow", tool_call_id="c1", state={"injected": True})
    )
    collector.on_event_sync(node_event("TOOL", visit_only=True, step=2))
    collector.on_event_sync(
        node_event("MAIN", response_text="Snow in Oslo.", token_usage={"input_tokens": 20})
    )
    collector.on_event_sync(
        EventModel(event=Event.GRAPH_EXECUTION, data={"response_text": "Snow in Oslo."})
    )

    assert collector.node_visits == ["MAIN", "TOOL", "MAIN"]
    assert [(s.step_type, s.name) for s in collector.trajectory] == [
        (StepType.NODE, "MAIN"),
        (StepType.TOOL, "get_weather"),
        (StepType.NODE, "TOOL"),
        (StepType.NODE, "MAIN"),
    ]
    assert [(c.name, c.args, c.result, c.call_id) for c in collector.tool_calls] == [
        ("get_weather", {"location": "Oslo"}, "snow", "c1")
    ]
    assert len(collector.node_responses) == 2  # the tool node's visit has no response
    assert collector.token_usage.total_tokens == 33
    assert collector.final_response == "Snow in Oslo."
    assert len(collector.events) == 6
    result = collector.to_execution_result(duration_seconds=1.5)
    assert result.get_tool_names() == ["get_weather"]
    assert result.duration_seconds == 1.5
    assert result.messages[-1] == {"role": "assistant", "content": "Snow in Oslo."}
    collector.reset()
    assert (collector.node_visits, collector.tool_calls, collector.final_response) == ([], [], "")


async def test_capture_isolates_concurrent_contexts() -> None:
    shared = TrajectoryCollector()
    live: list[str] = []
    shared.add_listener(lambda event: live.append(event.node_name))

    async def case(name: str) -> list[str]:
        with shared.capture() as own:
            for step in range(5):
                await shared.on_event(node_event(f"{name}-{step}"))
                await asyncio.sleep(0)
            return own.node_visits

    visits = await asyncio.gather(*(case(f"c{index}") for index in range(10)))
    for index, case_visits in enumerate(visits):
        assert case_visits == [f"c{index}-{step}" for step in range(5)]
    assert shared.node_visits == []  # nothing leaked into the shared collector
    assert len(live) == 50  # but its live listeners saw every event
    shared.on_event_sync(node_event("outside"))
    assert shared.node_visits == ["outside"]


async def test_subscription_loses_nothing_from_busy_threads() -> None:
    collector = EventCollector()
    subscription = collector.subscribe()

    def produce(tag: str) -> None:
        for index in range(2000):
            collector.on_event_sync(node_event(f"{tag}{index}"))

    threads = [threading.Thread(target=produce, args=(tag,)) for tag in "ab"]
    seen: list[str] = []

    async def consume() -> None:
        async for event in subscription:
            seen.append(event.node_name)
            if len(seen) == 4000:
                subscription.close()

    consumer = asyncio.create_task(consume())
    for thread in threads:
        thread.start()
    await asyncio.wait_for(consumer, timeout=scaled(10))
    for thread in threads:
        thread.join()
    for tag in "ab":
        assert [n for n in seen if n.startswith(tag)] == [f"{tag}{i}" for i in range(2000)]


async def test_node_start_events_are_visits_as_10xgraph_records_them() -> None:
    from tenxeval_tui.evaluation import CriterionConfig, EvalCase, NodeOrderMatchCriterion

    collector = TrajectoryCollector()
    sequence = [
        (EventType.START, "__start__", {}),
        (EventType.END, "MAIN", {"has_tool_calls": True, "tool_call_names": ["get_weather"]}),
        (EventType.END, "TOOL", {"visit_only": True}),
        (EventType.END, "MAIN", {"response_text": "Sunny.", "is_final": True}),
    ]
    for event_type, node, data in sequence:
        await collector.on_event(
            EventModel(event=Event.NODE_EXECUTION, event_type=event_type, node_name=node, data=data)
        )
    assert collector.node_visits == ["__start__", "MAIN", "TOOL", "MAIN"]
    assert collector.trajectory[0].metadata == {"event_type": "start"}
    assert [r.node_name for r in collector.node_responses] == ["MAIN", "MAIN"]
    execution = collector.to_execution_result(0.1)
    criterion = NodeOrderMatchCriterion(CriterionConfig.node_order())
    theirs = EvalCase.single_turn("c", "q", expected_node_order=["__start__", "MAIN", "MAIN"])
    assert (await criterion.evaluate(execution, theirs)).score == 1.0
    wrong = EvalCase.single_turn("c", "q", expected_node_order=["__start__", "MAIN"])
    assert (await criterion.evaluate(execution, wrong)).score == 0.0
