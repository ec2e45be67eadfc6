"""Running a worker's event loop without waiting, at its end, for threads the agent left.

``asyncio.run`` ends by waiting for every thread of the loop's default executor (up to
five minutes in Python 3.12): a tool run with ``asyncio.to_thread`` or
``loop.run_in_executor`` that is still going after its case timed out (a stuck request, a
``time.sleep``) would keep the worker, and so ``run``, from ending. A worker process is
ended with ``os._exit`` once its loop is done (:func:`~tenxeval_tui.runs.child_setup.exit_now`),
which takes such threads with it; :func:`run_leaving_threads` is ``asyncio.run`` whose
default executor, when shut down, asks its idle threads to stop and waits for none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any


class LeavingExecutor(ThreadPoolExecutor):
    """A thread pool whose shutdown never waits for a thread still running."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=False, cancel_futures=True)


def run_leaving_threads[T](main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on a new event loop, as ``asyncio.run`` does, but end without waiting
    for the threads of its default executor (the process is to end right after)."""

    def new_loop() -> asyncio.AbstractEventLoop:
        loop = asyncio.new_event_loop()
        loop.set_default_executor(LeavingExecutor(thread_name_prefix="asyncio"))
        return loop

    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)


__all__ = ["LeavingExecutor", "run_leaving_threads"]
