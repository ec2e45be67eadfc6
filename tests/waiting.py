"""Waiting for a condition, the one way the tests wait (they hold on a busy machine).

A fixed pause before an assertion is a race that a loaded machine loses; these helpers poll
the condition instead and fail after a generous timeout with a message that says which
condition did not come true. ``TENXEVAL_TEST_TIMEOUT_SCALE`` stretches every timeout (the
stress target sets it) without touching a test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

DEFAULT_TIMEOUT = 30.0
POLL = 0.05


def scaled(timeout: float) -> float:
    """``timeout`` stretched by ``TENXEVAL_TEST_TIMEOUT_SCALE`` (1 when unset)."""
    return timeout * float(os.environ.get("TENXEVAL_TEST_TIMEOUT_SCALE", "1"))


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
    deadline = time.monotonic() + scaled(timeout)
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{describe(predicate, what)} did not hold within {timeout:g} s")
        await step()


def wait_sync(
    predicate: Callable[[], object], timeout: float = DEFAULT_TIMEOUT, what: str | None = None
) -> None:
    """Poll ``predicate()`` in this thread until it holds (for subprocess and file tests)."""
    deadline = time.monotonic() + scaled(timeout)
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{describe(predicate, what)} did not hold within {timeout:g} s")
        time.sleep(POLL)  # a poll interval, not a wait for an outcome
