"""One process of a pool of workers (``run --workers N``): runs the cases it is handed.

``python -m tenxeval_tui.runs.pool_worker @PLAN_FILE`` loads the plan's eval sets (selected
as every worker selects them, so ``[set index, case index]`` pairs mean the same case in
the driver, :mod:`tenxeval_tui.runs.pool`), its criteria and agents, then says so and asks
for work. The protocol, one JSON object per line:

- stdin, from the driver: ``{"type": "batch", "cases": [[set, case], ...]}`` (cases to
  run) and ``{"type": "done"}`` (nothing more will come: finish what you have and exit);
  end of file is ``done`` too (the driver is gone). Also the front end's commands, routed
  by the driver (``stop_case``, ``end_tool_call``:
  :mod:`~tenxeval_tui.runs.worker_commands`, with an ``ask`` number), carried out on
  this process's cases at once.
- stdout, to the driver: ``{"type": "pool_ready"}`` once loaded, ``{"type": "want"}``
  when its queue runs dry (one request at a time), every observer call as
  :class:`~tenxeval_tui.evaluation.observers.JsonLinesObserver` writes it (``case_start``,
  ``event``, ``repeat_*``, ``case_end`` with the whole result: the driver keeps the
  journal and writes the report), ``worker_ack`` for each command (its ``ask`` number
  given back), and ``worker_error`` (``message``) when it cannot load (exit status 3).

Its share of the run's concurrency is the plan's config's ``max_concurrency``: that many
cases run at once (each case's repeats one after the other). SIGTERM stops it: the running
cases are cancelled (no ``case_end``), and it exits. The agent's prints go to stderr, as in
:mod:`tenxeval_tui.runs.worker`.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.case_control import StopMode
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.runs.child_setup import (
    ERROR_EXIT,
    load_agents,
    run_then_exit,
    set_up_logging,
)
from tenxeval_tui.runs.loop_exit import run_leaving_threads
from tenxeval_tui.runs.parent_watch import die_with_parent
from tenxeval_tui.runs.plan import RunPlan, selected_eval_sets, tool_run
from tenxeval_tui.runs.protocol_lines import ProtocolLines, protocol_stream
from tenxeval_tui.runs.wanted_events import WantedJsonLinesObserver
from tenxeval_tui.runs.worker_commands import apply_command, is_command

READ_LIMIT = 1 << 24
"""The longest stdin line read (a batch is a few pairs: far below)."""


def with_resolved_repeats(config: Any, eval_set: EvalSet, case: EvalCase) -> EvalCase:
    """``case`` carrying its repeat count in its metadata: the eval set's (or the config's)
    count holds when the case is run on its own, as :meth:`AgentEvaluator.evaluate_case`
    runs it."""
    from tenxeval_tui.evaluation.repeats import REPEATS_KEY, resolve_repeats

    count = resolve_repeats(config, eval_set, case)
    if case.metadata.get(REPEATS_KEY) == count or count == 1:
        return case
    return case.model_copy(update={"metadata": {**case.metadata, REPEATS_KEY: count}})


class PooledEvaluators:
    """The evaluators of one pooled worker (a process, a Ray actor) as what the front end's
    commands act on (:class:`~tenxeval_tui.runs.worker_commands.Stoppable`): a case is
    found by its eval set's id in every evaluator of that set."""

    def __init__(self, evaluators: Sequence[tuple[Any, EvalSet]]) -> None:
        self.evaluators = evaluators

    def _of(self, eval_set_id: str) -> list[Any]:
        return [e for e, eval_set in self.evaluators if eval_set.eval_set_id == eval_set_id]

    def stop_case(self, eval_set_id: str, eval_id: str, mode: StopMode = StopMode.CANCEL) -> bool:
        """Stop the case wherever it runs here; ``False`` when it runs nowhere here."""
        return any([e.stop_case(eval_id, mode) for e in self._of(eval_set_id)])

    def end_tool_calls(self, eval_set_id: str, eval_id: str) -> list[str]:
        """End the case's tool calls in flight here; their names."""
        return [name for e in self._of(eval_set_id) for name in e.end_tool_calls(eval_id)]

    def answer(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """Carry out command ``data``; its ``worker_ack``, the driver's ``ask`` number given
        back (``None``: not a command)."""
        ack = apply_command(self, data)
        if ack is not None and "ask" in data:
            ack["ask"] = data["ask"]
        return ack


def driver_line(line: str) -> dict[str, Any]:
    """A line from the driver as an object (an empty or unreadable one: ``done``)."""
    try:
        data = json.loads(line) if line.strip() else None
    except ValueError:
        data = None
    return data if isinstance(data, dict) else {"type": "done"}


class _Slots:
    """The cases handed to this process, run ``share`` at a time."""

    def __init__(
        self, evaluators: Sequence[tuple[Any, EvalSet]], share: int, out: ProtocolLines
    ) -> None:
        self.evaluators = evaluators
        self.share = max(1, share)
        self.out = out
        self.queue: asyncio.Queue[tuple[int, int] | None] = asyncio.Queue()
        self.asked = False
        self.tasks: list[asyncio.Task[None]] = []

    def want(self) -> None:
        if not self.asked:
            self.asked = True
            self.out.emit({"type": "want"})

    def take(self, data: dict[str, Any]) -> bool:
        """Queue what a driver line hands over; ``False`` once nothing more will come."""
        if data.get("type") != "batch":
            for _ in range(self.share):
                self.queue.put_nowait(None)
            return False
        self.asked = False
        for set_index, case_index in data.get("cases", []):
            self.queue.put_nowait((int(set_index), int(case_index)))
        return True

    async def slot(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            if self.queue.empty():
                self.want()
            evaluator, eval_set = self.evaluators[item[0]]
            case = eval_set.eval_cases[item[1]]
            await evaluator.evaluate_case(
                with_resolved_repeats(evaluator.config, eval_set, case), eval_set.eval_set_id
            )


async def _read_driver(slots: _Slots, commands: PooledEvaluators) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=READ_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        data = driver_line((await reader.readline()).decode("utf-8", errors="replace"))
        if is_command(data):
            ack = commands.answer(data)
            if ack is not None:
                slots.out.emit(ack)
        elif not slots.take(data):
            return


def load_evaluators(plan: RunPlan, observer: RunObserver) -> list[tuple[Any, EvalSet]]:
    """One pooled worker's evaluators (a process's, a Ray actor's), each with its eval
    set: the plan's criteria modules imported, its eval sets selected, its agents loaded,
    its tools set up (the driver writes the cassettes). Raises what stops it loading."""
    from tenxeval_tui.evaluation.evaluator import AgentEvaluator
    from tenxeval_tui.runs.criteria_modules import import_criteria_modules

    import_criteria_modules(plan.criteria_modules, plan.search_path)
    config = plan.resolved_config()
    files_and_sets = selected_eval_sets(plan)
    loaded = load_agents(plan, files_and_sets)
    tools = tool_run(plan, files_and_sets, write=False)
    return [
        (AgentEvaluator(app, collector, config, observers=[observer], tools=tools), eval_set)
        for app, collector, eval_set in loaded
    ]


async def run(plan: RunPlan, out: ProtocolLines) -> int:
    """Load ``plan``, then run the cases the driver hands over; returns the exit status."""
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError

    try:
        lines = WantedJsonLinesObserver(out.write, events=plan.events)
        evaluators = load_evaluators(plan, lines)
        config = plan.resolved_config()
    except AgentLoadError as exc:
        out.emit({"type": "worker_error", "message": str(exc), "usage": True})
        return ERROR_EXIT
    except Exception as exc:  # everything that stops a worker from starting, in one line
        out.emit({"type": "worker_error", "message": f"{type(exc).__name__}: {exc}"})
        return ERROR_EXIT
    slots = _Slots(evaluators, config.max_concurrency, out)
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for task in slots.tasks:
            task.cancel()

    loop.add_signal_handler(signal.SIGTERM, stop)
    loop.add_signal_handler(signal.SIGINT, lambda: None)  # the driver decides, not Ctrl-C

    def stop_soon() -> None:  # a write may fail off the loop (a tool's thread)
        loop.call_soon_threadsafe(stop)

    out.on_broken = stop_soon
    out.emit({"type": "pool_ready"})
    slots.want()
    reading = asyncio.create_task(_read_driver(slots, PooledEvaluators(evaluators)))
    slots.tasks = [asyncio.create_task(slots.slot()) for _ in range(slots.share)]
    await asyncio.gather(*slots.tasks, return_exceptions=True)
    reading.cancel()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tenxeval_tui.runs.pool_worker @PLAN_FILE``."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = ProtocolLines(protocol_stream())
    try:
        raw = Path(args[0][1:]).read_text("utf-8") if args[0].startswith("@") else args[0]
        plan = RunPlan.model_validate_json(raw)
    except (IndexError, OSError, ValueError) as exc:
        out.emit({"type": "worker_error", "message": f"bad run plan: {exc}"})
        return ERROR_EXIT
    set_up_logging(plan.verbose)
    try:
        return run_leaving_threads(run(plan, out))
    finally:
        out.flush()  # what waits for the timer: the process ends with os._exit


if __name__ == "__main__":
    die_with_parent()  # its driver killed outright takes it with it
    run_then_exit(main)
