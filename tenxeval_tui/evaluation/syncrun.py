"""Running a coroutine to its end from synchronous code, inside a running event loop or not."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def run_to_end[T](coroutine: Coroutine[Any, Any, T], *, thread_name: str = "tenxeval-sync") -> T:
    """Run ``coroutine`` to completion from synchronous code and return its value.

    Outside an event loop this is ``asyncio.run``. Inside one (a Jupyter cell, an
    async test) the running loop cannot be re-entered, so the coroutine runs in an
    event loop of its own on a helper thread while this call waits for it; what it
    raises is raised here.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed to the caller's thread below
            outcome["error"] = exc

    thread = threading.Thread(target=run, name=thread_name)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
