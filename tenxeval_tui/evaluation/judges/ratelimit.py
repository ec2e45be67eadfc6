"""Sliding-window rate limits: at most ``limit`` units (requests, tokens) in any ``period``.

Providers publish judge limits as requests and tokens per minute. A
:class:`SlidingWindowLimiter` keeps a log of what was granted in the last ``period``
seconds and makes a caller wait until its amount fits, so that no window of
``period`` seconds ever holds more than ``limit``. (A leaky bucket, as
``aiolimiter`` has, lets a full burst through at the start of a minute and refills
during it: up to twice the limit in one minute, which a provider counting by the
minute answers with HTTP 429.)

An amount may be *settled* once it is known (the tokens a reply really used);
the log then counts that. Time comes from ``clock`` and waiting from ``sleep``, so
tests can drive both.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[object]]


class Grant:
    """One granted amount in a limiter's log; :meth:`settle` corrects it."""

    __slots__ = ("amount", "at")

    def __init__(self, at: float, amount: int) -> None:
        self.at = at
        self.amount = amount

    def settle(self, amount: int) -> None:
        """Count ``amount`` instead of what was reserved (the real use, once known)."""
        self.amount = max(0, amount)


class SlidingWindowLimiter:
    """At most ``limit`` units in any window of ``period`` seconds; waiters go in order.

    An amount larger than ``limit`` is granted alone in an empty window (it could
    never fit otherwise). :meth:`tighten` lowers the limit from the next grant on.
    """

    def __init__(
        self,
        limit: int,
        period: float = 60.0,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if limit < 1:
            raise ValueError("a rate limit must be at least 1")
        if period <= 0:
            raise ValueError("a rate limit's period must be positive")
        self.limit = limit
        self.period = period
        self._clock = clock
        self._sleep = sleep
        self._log: deque[Grant] = deque()
        self._lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None

    def tighten(self, limit: int) -> None:
        """Lower the limit to ``limit`` when that is stricter (a higher one is ignored)."""
        if 1 <= limit < self.limit:
            self.limit = limit

    def used(self) -> int:
        """Units granted in the current window."""
        self._expire(self._clock())
        return sum(grant.amount for grant in self._log)

    def _expire(self, now: float) -> None:
        while self._log and self._log[0].at <= now - self.period:
            self._log.popleft()

    def _queue(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        return self._lock

    async def acquire(self, amount: int = 1) -> Grant:
        """Wait until ``amount`` fits in the window, log it, and return its :class:`Grant`."""
        async with self._queue():  # first come, first served
            while True:
                now = self._clock()
                self._expire(now)
                used = sum(grant.amount for grant in self._log)
                if used + amount <= self.limit or not self._log:
                    grant = Grant(now, amount)
                    self._log.append(grant)
                    return grant
                # Wait until the oldest grant leaves the window, then look again.
                await self._sleep(max(self._log[0].at + self.period - now, 0.0))
