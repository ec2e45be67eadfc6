"""A live, ordered, lossless stream of events (what ``EventCollector.subscribe`` returns)."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from typing import Protocol

from tenxeval_tui.evaluation.events import EventModel


class Unsubscribe(Protocol):
    """What a subscription is attached to."""

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop delivering events to ``subscription``."""


class Subscription:
    """A live, ordered, lossless stream of the events a collector receives.

    Iterate with ``async for``; iteration ends after :meth:`close` (or the
    collector's ``close()``) once every buffered event was delivered. Events
    may be delivered from another thread; they are handed to the loop of the
    consumer safely.
    """

    def __init__(self, owner: Unsubscribe, backlog: list[EventModel]) -> None:
        self._owner = owner
        self._items: deque[EventModel] = deque(backlog)
        self._closed = False
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.get_ident()

    def push(self, event: EventModel) -> None:
        """Queue one event (called by the collector)."""
        self._items.append(event)
        self._wake()

    def close(self) -> None:
        """End the stream after the buffered events; unsubscribe from the collector."""
        self._closed = True
        self._owner.unsubscribe(self)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is None or self._loop is None:
            return
        if threading.get_ident() == self._thread:
            if not waiter.done():
                waiter.set_result(None)
        else:
            self._loop.call_soon_threadsafe(_resolve, waiter)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> EventModel:
        while not self._items:
            if self._closed:
                raise StopAsyncIteration
            self._loop = asyncio.get_running_loop()
            self._thread = threading.get_ident()
            waiter = self._waiter = self._loop.create_future()
            try:
                # Checked again now that the waiter is visible: an event pushed from
                # another thread just before it was set would otherwise wake no one.
                if not self._items and not self._closed:
                    await waiter
            finally:
                self._waiter = None
        return self._items.popleft()

    def __len__(self) -> int:
        return len(self._items)


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


__all__ = ["Subscription"]
