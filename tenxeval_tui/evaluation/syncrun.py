"""Running a coroutine to its end from synchronous code, inside a running event loop or not."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


async def _boxed[T](coroutine: Coroutine[Any, Any, T], box: list[T]) -> None:
    box.append(await coroutine)


def run_main[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, without Python 3.12 formatting the value's ``repr``.

    In the main thread ``asyncio.run`` installs a SIGINT handler holding the main task,
    and restoring the old handler at the end goes through ``signal._int_to_enum``,
    which builds a ``ValueError`` message with ``%r`` of that handler, so of the task,
    so of its result: for a 10,000-case report, seconds spent on a string nobody sees.
    The coroutine's value is handed back through a box instead, the task's own result
    being ``None``.
    """
    box: list[T] = []
    asyncio.run(_boxed(coroutine, box))
    return box[0]


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
        return run_main(coroutine)
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
