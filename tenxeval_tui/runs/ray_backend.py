"""The Ray backend (``run --backend ray [--address ADDRESS]``): evaluators as async Ray actors.

:class:`RayPool` is the driver; like :class:`~tenxeval_tui.runs.pool.ProcessPool` it runs
inside the run's worker child (:mod:`tenxeval_tui.runs.worker`), so every front end gets it
through the same :class:`RunPlan` and the same protocol lines, and the driver writes the
journal and the report. Without an address it starts a local Ray instance on 127.0.0.1
(one CPU per worker at least) and stops it after the run; with one it joins that cluster,
whose nodes must be able to import the agent (install the project there, or start Ray with
a ``runtime_env``).

Each :class:`EvaluatorActor` loads the plan's eval sets, criteria and agents once (an agent
that does not import fails the run before any case is handed out, said once) and runs the
batches of cases it is handed with its share of the concurrency. A batch is a Ray streaming
generator: the observer lines of its cases (``case_start``, every ``event``, ``case_end``
with the whole result) come back to the driver as they are written, in order per case.
The driver hands out small batches as each actor finishes one (two in flight per actor,
so it never idles between them). An actor that dies: the cases of its batches in flight
(all of them: a batch's cases start together, and the death may come before their first
line does) run once more on another actor (:mod:`tenxeval_tui.runs.retry`), or end as
errors saying so when their retry's actor dies too; while cases are left, a new actor
starts in its place, so an agent that kills its actor takes only its own case down (and
that only after its retry). Cases no actor is left to run end as errors. A case running
past its deadline (:mod:`~tenxeval_tui.runs.case_deadlines`) ends as timed out and its
actor is killed. A front end's command (stop one case, end its tool call:
:meth:`CasePool.command`) is a call of :meth:`EvaluatorActor.command` on each live actor
holding the case; it runs on the actor's loop beside the batches.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextvars import ContextVar
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.observers import replay_json_lines
from tenxeval_tui.evaluation.results.lean_load import case_result
from tenxeval_tui.runs.case_pool import CaseId, CasePool, share_plan, shares
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.retry import Key
from tenxeval_tui.runs.wanted_events import WantedJsonLinesObserver

BATCHES_IN_FLIGHT = 2
"""Batches each actor holds at once: the next is running while one's results come back."""
EVENT_PREFIX = '{"type": "event"'
CASE_END_PREFIX = '{"type": "case_end"'

_BATCH_LINES: ContextVar[asyncio.Queue[str] | None] = ContextVar("batch_lines", default=None)
"""The line queue of the batch whose case is running (each batch's tasks see their own)."""


def ray_missing() -> str | None:
    """Why Ray cannot be used here, or ``None`` when it can."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed: pip install 'tenxeval-tui[ray]'"
    return None


class EvaluatorActor:
    """One evaluator of a run, as an async Ray actor (made remote by :func:`_actor_class`)."""

    def __init__(self, plan_json: str) -> None:
        self.plan = RunPlan.model_validate_json(plan_json)
        self.evaluators: list[tuple[Any, EvalSet]] = []

    def load(self) -> str | None:
        """Load the eval sets, criteria and agents; what went wrong, in one line, or
        ``None`` (an exception is not raised: the agent's own may not cross to the driver)."""
        from tenxeval_tui.evaluation.targets.loader import AgentLoadError
        from tenxeval_tui.runs.child_setup import set_up_logging
        from tenxeval_tui.runs.pool_worker import load_evaluators

        set_up_logging(False)
        try:
            self.evaluators = load_evaluators(
                self.plan, WantedJsonLinesObserver(self._write, events=self.plan.events)
            )
        except AgentLoadError as exc:
            return str(exc)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    async def command(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """Carry out a front end's command (stop one case, end its tool call) on this
        actor's cases; its ``worker_ack``."""
        from tenxeval_tui.runs.pool_worker import PooledEvaluators

        return PooledEvaluators(self.evaluators).answer(data)

    def _write(self, line: str) -> None:
        lines = _BATCH_LINES.get()
        if lines is not None:
            lines.put_nowait(line)

    async def run_batch(self, batch: list[list[int]]) -> AsyncIterator[str]:
        """Run the cases of ``batch`` (``[set, case]`` pairs) at once; yields their observer
        lines as they are written, several joined when they come together."""
        from tenxeval_tui.runs.pool_worker import with_resolved_repeats

        # Each batch has its own queue: its cases' tasks find it in their context (they copy
        # it when created), so a batch's stream holds its own cases' lines, in order.
        lines: asyncio.Queue[str] = asyncio.Queue()
        _BATCH_LINES.set(lines)

        async def one(set_index: int, case_index: int) -> None:
            evaluator, eval_set = self.evaluators[set_index]
            case = eval_set.eval_cases[case_index]
            await evaluator.evaluate_case(
                with_resolved_repeats(evaluator.config, eval_set, case), eval_set.eval_set_id
            )

        running = asyncio.ensure_future(asyncio.gather(*(one(s, c) for s, c in batch)))
        while not (running.done() and lines.empty()):
            getter = asyncio.ensure_future(lines.get())
            either: set[asyncio.Future[Any]] = {getter, running}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                continue
            chunk = [getter.result()]
            while not lines.empty():
                chunk.append(lines.get_nowait())
            yield "".join(chunk)
        await running


def _actor_class() -> Any:
    import ray

    return ray.remote(EvaluatorActor)


class RayPool(CasePool):
    """Runs the cases of ``eval_sets`` (as ``plan`` selects them) on ``workers`` Ray actors
    (the constructor's arguments and the results are :class:`CasePool`'s)."""

    def _init_backend(self) -> None:
        self.actors: list[Any] = []
        self._dead: set[int] = set()
        self._waiting: dict[int, dict[CaseId, Key]] = {}
        self._started: dict[int, dict[CaseId, Key]] = {}
        self._started_ray = False
        self._changed: asyncio.Event | None = None
        """Set when a case ends or goes back to the queue: an idle feeder looks again."""
        self._feeding: set[asyncio.Task[None]] = set()
        self._killed_for: dict[int, str] = {}

    def _connect(self) -> None:
        import ray

        if ray.is_initialized():
            return
        env = {"PYTHONPATH": self.plan.worker_env().get("PYTHONPATH", "")}
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
            "runtime_env": {"env_vars": env},
        }
        if self.plan.ray_address:
            ray.init(address=self.plan.ray_address, **options)
        else:
            from tenxeval_tui.runs.pool import default_workers

            ray.init(
                num_cpus=max(self.count, default_workers()),
                _node_ip_address="127.0.0.1",
                **options,
            )
            self._started_ray = True

    async def _run_cases(self) -> None:
        import ray

        self._changed = asyncio.Event()
        try:
            await asyncio.to_thread(self._connect)
            self.actors = [
                self._new_actor(share)
                for share in shares(self.config.effective_concurrency, self.count)
            ]
            loads = await asyncio.gather(
                *(a.load.remote() for a in self.actors), return_exceptions=True
            )
            failed = next((e for e in loads if e is not None), None)
            if failed is not None:
                self.worker_error = _cause(failed) if isinstance(failed, BaseException) else failed
            else:
                for number in range(len(self.actors)):
                    self._start_feeding(number)
                while self._feeding:  # a dead actor's replacement is fed too
                    await asyncio.wait(set(self._feeding))
        finally:
            for actor in self.actors:
                ray.kill(actor)
            if self._started_ray:
                ray.shutdown()

    def _new_actor(self, share: int) -> Any:
        plan = share_plan(self.plan, self.config, share).model_dump_json()
        return _actor_class().options(num_cpus=1).remote(plan)

    def _start_feeding(self, number: int) -> None:
        for _ in range(BATCHES_IN_FLIGHT):
            task = asyncio.get_running_loop().create_task(self._feed(number, self.actors[number]))
            self._feeding.add(task)
            task.add_done_callback(self._feeding.discard)

    async def _replace(self, number: int) -> None:
        """A new actor in the place of dead actor ``number``; one that cannot load ends the
        replacing (the cases left then end as errors)."""
        share = shares(self.config.effective_concurrency, self.count)[number]
        actor = self._new_actor(share)
        try:
            failed = await actor.load.remote()
        except Exception as exc:
            failed = _cause(exc)
        if failed is not None or self.cancelled:
            self.max_replacements = self.replaced
            name = self._worker_name(number)
            self._last_death = f"{name}'s replacement could not load: {failed}" if failed else ""
            _ray_kill(actor)
            self._wake()
            return
        self.actors[number] = actor
        self._dead.discard(number)
        self._killed_for.pop(number, None)
        self._start_feeding(number)

    def cancel(self) -> None:
        """Stop now: no more batches; the actors are killed (finished cases are kept)."""
        self.cancelled = True
        self._wake()
        try:
            import ray

            for actor in self.actors:
                ray.kill(actor)
        except Exception:  # Ray is going down already
            pass

    async def _feed(self, number: int, actor: Any) -> None:
        share = shares(self.config.effective_concurrency, self.count)[number]
        # What an actor holds is tracked per actor (its batches die with it).
        waiting = self._waiting.setdefault(number, {})
        started = self._started.setdefault(number, {})
        # A feeder serves its own actor only (a replacement in its slot has feeders of its own).
        while not self.cancelled and number not in self._dead and self.actors[number] is actor:
            holding = [*waiting.values(), *started.values()]
            batch = (
                self._next_batch(-(-share // BATCHES_IN_FLIGHT), holding) if self._left() else []
            )
            if not batch:
                if not self._left() and not self._outstanding():
                    return
                # Another actor may die yet (its cases come back to the queue), or a case
                # ends here (a retried case waits for an actor holding nothing).
                assert self._changed is not None
                self._changed.clear()
                await self._changed.wait()
                continue
            waiting.update({self._case_id(key): key for key in batch})
            try:
                stream = actor.run_batch.options(num_returns="streaming").remote(
                    [list(key) for key in batch]
                )
                async for ref in stream:
                    self._take(await ref, waiting, started)
            except Exception as exc:
                if self.cancelled or self.actors[number] is not actor:
                    return
                self._lost(number, exc, waiting, started)
                return

    def _holders(self, case: CaseId) -> list[int]:
        return [
            n
            for n in range(len(self.actors))
            if n not in self._dead
            and (case in self._started.get(n, {}) or case in self._waiting.get(n, {}))
        ]

    async def _ask(self, worker: int, data: dict[str, Any]) -> dict[str, Any] | None:
        answer = await self.actors[worker].command.remote(data)
        return answer if isinstance(answer, dict) else None

    def _outstanding(self) -> int:
        """Cases handed to live actors and not finished."""
        return sum(
            len(self._waiting.get(n, {})) + len(self._started.get(n, {}))
            for n in range(len(self.actors))
            if n not in self._dead
        )

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def _take(self, chunk: str, waiting: dict[CaseId, Key], started: dict[CaseId, Key]) -> None:
        # Lines end at "\n" only (str.splitlines would also cut at U+2028 inside a string).
        for line in (piece + "\n" for piece in chunk.split("\n") if piece):
            if line.startswith(EVENT_PREFIX):
                self._event_line(line)
                self._event(line)
                continue
            try:
                data = json.loads(line)
            except ValueError as exc:
                if line.startswith(CASE_END_PREFIX):  # a result no one could read
                    raise UnreadableResult(f"a case result that cannot be read ({exc})") from None
                continue
            kind = data.get("type") if isinstance(data, dict) else None
            if kind == "repeat_start" and isinstance(data, dict):
                self._case_running((str(data.get("eval_set_id")), str(data.get("eval_id"))))
            if kind == "case_end":
                result = case_result(data["result"])  # made lean (see lean_load)
                case = (result.eval_set_id, result.eval_id)
                key = started.pop(case, None) or waiting.pop(case, None)
                waiting.pop(case, None)
                if self._record(key, result):
                    self._wake()
                continue
            if kind == "case_start":
                case = (str(data.get("eval_set_id")), str(data.get("eval_id")))
                if case in waiting:
                    started[case] = waiting.pop(case)
                    self._case_running(case)
            replay_json_lines([line], self.observer)

    def _lost(
        self,
        number: int,
        exc: BaseException,
        waiting: dict[CaseId, Key],
        started: dict[CaseId, Key],
    ) -> None:
        """The actor died (or its batch failed): its running cases go back to the queue
        once (else end as errors), the ones it had not started go back too."""
        if number in self._dead:
            return  # its other batch told it already
        self._dead.add(number)
        _ray_kill(self.actors[number])  # a batch that failed: the actor is done for too
        how = self._killed_for.get(number) or f"{self._worker_name(number)} died"
        if number not in self._killed_for:
            said = f": {exc}" if isinstance(exc, UnreadableResult) else ""
            how += f" ({type(exc).__name__}{said})"
        replace = self.replaced < self.max_replacements and not self.cancelled
        others = len(self._dead) < len(self.actors) or replace
        # A batch's cases all start at once, maybe before their first line came: each
        # counts as running (retried once), so a case that kills its actor cannot go on
        # killing the next ones as a case that never started.
        retried = self._settle_lost(how, started, others, 0, unsure=waiting)
        self._requeue([], retried=retried)
        started.clear()
        waiting.clear()
        if self._may_replace():
            task = asyncio.get_running_loop().create_task(self._replace(number))
            self._feeding.add(task)
            task.add_done_callback(self._feeding.discard)
        self._wake()

    # -- deadlines ----------------------------------------------------------

    def _take_running(self, case: CaseId) -> tuple[int, Key] | None:
        for number, started in self._started.items():
            if number not in self._dead and case in started:
                return number, started.pop(case)
        return None

    def _worker_name(self, worker: int) -> str:
        return f"Ray actor {worker + 1} of {self.count}"

    def _kill_worker(self, worker: int, how: str) -> None:
        if worker not in self._dead:
            self._killed_for.setdefault(worker, how)
            _ray_kill(self.actors[worker])


class UnreadableResult(RuntimeError):
    """An actor's line holding a case result that cannot be read: the actor is let go."""


def _ray_kill(actor: Any) -> None:
    try:
        import ray

        ray.kill(actor)
    except Exception:  # dead already, or Ray is going down
        pass


def _cause(exc: BaseException) -> str:
    """The error an actor raised while loading, in one line (Ray wraps it)."""
    cause = getattr(exc, "cause", None) or exc.__cause__ or exc
    return f"{type(cause).__name__}: {cause}".splitlines()[0]


__all__ = ["EvaluatorActor", "RayPool", "ray_missing"]
