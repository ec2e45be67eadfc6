"""Running a coroutine from synchronous code: its value comes back, never formatted."""

from __future__ import annotations

import asyncio

from tenxeval_tui.evaluation.syncrun import run_main, run_to_end


class Counted:
    """A value that counts how often it was formatted (a big report's repr takes seconds)."""

    def __init__(self) -> None:
        self.reprs = 0

    def __repr__(self) -> str:
        self.reprs += 1
        return "Counted()"


async def make(value: Counted) -> Counted:
    await asyncio.sleep(0)
    return value


def test_run_main_hands_the_value_back_without_formatting_it() -> None:
    value = Counted()
    assert run_main(make(value)) is value
    assert run_to_end(make(value)) is value
    assert value.reprs == 0
    # what it avoids: in the main thread, plain asyncio.run formats the task's result
    asyncio.run(make(value))
    assert value.reprs > 0


async def test_run_to_end_inside_a_running_loop() -> None:
    value = Counted()
    assert run_to_end(make(value)) is value
