"""EventCollector: every raw event of a run, for debugging and live views."""

from __future__ import annotations

from collections.abc import Callable

from tenxeval_tui.evaluation.events import Event, EventModel, EventType, as_event_model
from tenxeval_tui.evaluation.subscription import Subscription

EventListener = Callable[[EventModel], None]


class EventCollector:
    """Stores every raw :class:`EventModel` of a run; for debugging and live views.

    Register :meth:`on_event` (or :meth:`on_event_sync`) wherever events are
    produced; read :attr:`events` or follow them live with :meth:`subscribe`.
    """

    def __init__(self) -> None:
        self.events: list[EventModel] = []
        self._subscriptions: list[Subscription] = []
        self._listeners: list[EventListener] = []

    async def on_event(self, event: EventModel) -> None:
        """Append an event (ours, or 10xGraph's own ``EventModel``, converted)."""
        self._record(as_event_model(event))

    def on_event_sync(self, event: EventModel) -> None:
        """Append an event (from synchronous code)."""
        self._record(as_event_model(event))

    async def publish(self, event: EventModel) -> None:
        """Append an event (the publisher interface :class:`PublisherCallback` calls)."""
        await self.on_event(event)

    def _record(self, event: EventModel) -> None:
        self.events.append(event)
        self._broadcast(event)

    def _broadcast(self, event: EventModel) -> None:
        for subscription in self._subscriptions:
            subscription.push(event)
        for listener in self._listeners:
            listener(event)

    def add_listener(self, listener: EventListener) -> None:
        """Call ``listener(event)`` synchronously for every event from now on."""
        self._listeners.append(listener)

    def subscribe(self, *, replay: bool = True) -> Subscription:
        """A live async iterator over events, in arrival order, none lost.

        With ``replay`` the events already collected come first. The stream
        ends when :meth:`close` is called on the collector or the subscription.
        """
        subscription = Subscription(self, list(self.events) if replay else [])
        self._subscriptions.append(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop delivering events to ``subscription``."""
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)

    def close(self) -> None:
        """End every live subscription (after the events they have not read yet)."""
        for subscription in list(self._subscriptions):
            subscription.close()

    def reset(self) -> None:
        """Clear the buffer (live subscriptions stay open)."""
        self.events.clear()

    def filter_by_event(self, event_type: Event | str) -> list[EventModel]:
        """Events from the given source (``Event.NODE_EXECUTION``...); the argument's name
        is 10xGraph's."""
        return [e for e in self.events if e.event == event_type]

    def filter_by_event_type(self, event_type: EventType | str) -> list[EventModel]:
        """Events of the given phase (``EventType.END``...)."""
        return [e for e in self.events if e.event_type == event_type]

    def filter_by_node(self, node_name: str) -> list[EventModel]:
        """Events of one node (tool events carry the tool's name)."""
        return [e for e in self.events if e.node_name == node_name]

    def __len__(self) -> int:
        return len(self.events)
