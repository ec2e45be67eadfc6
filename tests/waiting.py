"""Waiting for a condition, the one way the tests wait (they hold on a busy machine).

A fixed pause before an assertion is a race that a loaded machine loses; these helpers poll
the condition instead and fail after a generous timeout with a message that says which
condition did not come true. Every timeout a test gives (to a wait here, a child process, a
thread) goes through :func:`scaled`: stretched by ``TENXEVAL_TEST_TIMEOUT_SCALE`` (the stress
target sets it) and by how busy the machine is, so a slow-but-right run gets the time it needs
and a race still fails.

:func:`wait_for` is the one way a UI test waits (``tests/tui/conftest.py`` re-exports it).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

DEFAULT_TIMEOUT = 30.0
POLL = 0.05


def load_factor() -> float:
    """How many times over the machine's cores are asked for now (the one-minute load
    average per core), at least 1: a test waiting on a machine loaded twice over is given
    twice the time."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def scaled(timeout: float) -> float:
    """``timeout`` stretched by ``TENXEVAL_TEST_TIMEOUT_SCALE`` (1 when unset) or by the
    machine's load (:func:`load_factor`), whichever is larger."""
    factor = float(os.environ.get("TENXEVAL_TEST_TIMEOUT_SCALE", "1"))
    return timeout * max(factor, load_factor())


def describe(predicate: Callable[[], object], what: str | None) -> str:
    """``what``, or where the predicate was written (``file.py:123``) when not given."""
    if what:
        return what
    code = getattr(predicate, "__code__", None)
    if code is None:
        return repr(predicate)
    return f"the condition at {Path(code.co_filename).name}:{code.co_firstlineno}"


async def wait_async(
    predicate: Callable[[], object],
    step: Callable[[], Awaitable[object]],
    timeout: float = DEFAULT_TIMEOUT,
    what: str | None = None,
) -> None:
    """Await ``step()`` until ``predicate()`` holds; ``AssertionError`` after ``timeout`` s."""
    limit = scaled(timeout)
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{describe(predicate, what)} did not hold within {limit:g} s")
        await step()


def wait_sync(
    predicate: Callable[[], object], timeout: float = DEFAULT_TIMEOUT, what: str | None = None
) -> None:
    """Poll ``predicate()`` in this thread until it holds (for subprocess and file tests)."""
    limit = scaled(timeout)
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{describe(predicate, what)} did not hold within {limit:g} s")
        time.sleep(POLL)  # a poll interval, not a wait for an outcome


class Pausing(Protocol):
    """What :func:`wait_for` needs of Textual's ``Pilot``: letting the app run a while."""

    async def pause(self, delay: float | None = None) -> Any: ...


async def wait_for(
    pilot: Pausing,
    predicate: Callable[[], object],
    timeout: float = DEFAULT_TIMEOUT,
    what: str | None = None,
) -> None:
    """Let the app run until ``predicate()`` holds; fails naming ``what`` after ``timeout`` s.

    Once it holds, the app's other tasks get one more turn before the test goes on.
    """
    await wait_async(predicate, lambda: pilot.pause(POLL), timeout, what)
    await asyncio.sleep(0)
