"""A model or tool call's event reaches our collector as it did through 10xGraph's own
``EventModel`` (``as_event_model(tenxgraph_event(...))``), without that round trip."""

from __future__ import annotations

from typing import Any

from injectq import InjectQ
from tenxgraph.core.state.message import Message
from tenxgraph.utils.callbacks import CallbackContext, CallbackManager, InvocationType

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import EventCollector, PublisherCallback, TrajectoryCollector
from tenxeval_tui.evaluation.events import EventModel, as_event_model


class RawPublisher:
    """Any 10xGraph-style publisher: keeps 10xGraph's events as it is given them."""

    def __init__(self) -> None:
        self.published: list[Any] = []

    async def publish(self, event: Any) -> None:
        self.published.append(event)


class Conservative(EventCollector):
    """A collector of the user's whose ``publish`` is its own: given 10xGraph's events."""

    async def publish(self, event: EventModel) -> None:
        assert not isinstance(event, EventModel)
        await super().publish(event)


def shape(event: EventModel) -> tuple[Any, ...]:
    """Everything of ``event`` but its time: fields, extras and their order, what was set."""
    dumped = event.model_dump()
    dumped.pop("timestamp")
    text = event.to_json().replace(repr(event.timestamp), "T")
    return (dumped, list(dumped), sorted(event.model_fields_set), text, type(event.data))


async def run_graph(publisher: Any, question: str) -> None:
    callback = PublisherCallback(publisher, config={"thread_id": "t", "run_id": "r"})
    manager = CallbackManager()
    for invocation_type in (InvocationType.AI, InvocationType.TOOL):
        manager.register_after_invoke(invocation_type, callback)
    with InjectQ().context():
        app = build_graph().compile(callback_manager=manager)
        message = Message.text_message(question, role="user")
        await app.ainvoke({"messages": [message]}, {"thread_id": "x"})


async def test_a_graphs_events_are_collected_as_through_10xgraphs_event_model() -> None:
    for question in ("What is the weather in Rome?", "What is the weather in Atlantis?"):
        raw, collector = RawPublisher(), TrajectoryCollector(capture_all_events=True)
        await run_graph(raw, question)
        await run_graph(collector, question)
        before = [as_event_model(e) for e in raw.published]
        assert len(collector.events) == len(before) >= 2
        assert [shape(e) for e in collector.events] == [shape(e) for e in before]


async def test_odd_tool_results_are_made_json_data_the_same_way() -> None:
    result = {"pair": (1, 2), 3: float("inf"), "nan": float("nan"), "raw": b"\xff", "o": object}
    context = CallbackContext(
        invocation_type=InvocationType.TOOL,
        node_name="TOOLS",
        function_name="search",
        metadata={"tool_call_id": "c1", "config": {"thread_id": 7, "_node_name": "TOOLS"}},
    )
    fast, slow = EventCollector(), Conservative()
    for publisher in (fast, slow):
        await PublisherCallback(publisher)(context, {"q": (1, "x")}, result)
    ((got,), (want,)) = fast.events, slow.events
    assert shape(got) == shape(want)
    assert got.data["result"]["3"] is None  # inf, as 10xGraph's JSON dump writes it
    assert got.data["result"]["pair"] == [1, 2]


async def test_our_collector_is_handed_our_event_not_10xgraphs_to_convert_back() -> None:
    class Spy(TrajectoryCollector):
        def __init__(self) -> None:
            super().__init__()
            self.given: list[type] = []

        async def on_event(self, event: EventModel) -> None:
            self.given.append(type(event))
            await super().on_event(event)

    spy = Spy()
    await run_graph(spy, "What is the weather in Rome?")
    assert spy.given == [EventModel, EventModel, EventModel]
    assert spy.node_visits == ["MAIN", "MAIN"]
