"""Watch mode of the run screen: rerun what a saved file affects.

Change detection (:class:`~tenxeval_tui.runs.watch.ChangeWatcher`) and the policy of what
reruns (:func:`~tenxeval_tui.runs.watch.rerun_for`) are shared with ``run --watch``; this
class applies them to the run view, through the narrow :class:`WatchedView` (the run
screen satisfies it; this module does not import it):

- agent code (or the eval config) changed: everything selected reruns, in a new
  worker process (fresh imports);
- eval sets changed: only their added or modified cases rerun (and any case with no
  result yet); every other case is shown carried over from the last run;
- eval sets changed while a run is in progress: the run goes on (the cases the change
  does not touch finish), and the changed cases rerun once it ends; agent code changed
  while it runs restarts it whole (every case would run the old code).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Coroutine, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.targets.loader import agent_source_folder
from tenxeval_tui.evaluation.watch_marks import WATCH_KEY
from tenxeval_tui.runs.live_run import case_key
from tenxeval_tui.runs.watch import ChangeBatch, ChangeWatcher, rerun_for
from tenxeval_tui.widgets.run.run_options import RunChoice

# Watch mode reacts within this long after the last write of a save.
DEBOUNCE_MS = 150


class WatchedView(Protocol):
    """What watch mode reads of the run view and asks it to do."""

    @property
    def search_path(self) -> Path:
        """Where the agent's module is looked up."""
        ...

    @property
    def config_file(self) -> Path | None:
        """The eval config file, if any (a change of it reruns everything)."""
        ...

    @property
    def running(self) -> bool:
        """Whether a run is in progress."""
        ...

    @property
    def last_results(self) -> Mapping[str, EvalCaseResult]:
        """Case key -> the latest result of each case run so far."""
        ...

    @property
    def cases_in_run(self) -> Iterable[tuple[str, str]]:
        """``(eval_set_id, eval_id)`` of each case of the run in progress (none when idle)."""
        ...

    @property
    def set_paths(self) -> Mapping[str, Path]:
        """Eval set id -> the file it was read from."""
        ...

    def options_choice(self) -> RunChoice:
        """What the options bar selects now."""
        ...

    def chosen_paths(self, choice: RunChoice) -> list[Path]:
        """The eval set files ``choice`` selects."""
        ...

    def action_start(self) -> None:
        """Run what the options select."""
        ...

    def launch(
        self,
        paths: list[Path],
        *,
        only: dict[str, list[str]] | None = None,
        tags: list[str] | None = None,
        carry: list[EvalCaseResult] | None = None,
        chosen_by: str | None = None,
    ) -> bool:
        """Run ``paths`` (only the ``only`` cases), showing ``carry`` as carried over;
        ``chosen_by``: why only those (the reports' ``metadata.selection``)."""
        ...

    def drop_cases(self, keys: set[str]) -> None:
        """Take cases that no longer exist out of the view."""
        ...

    def forget_results(self, keys: Iterable[str]) -> None:
        """Forget the results of cases that no longer exist."""
        ...

    def say_problem(self, message: str) -> None:
        """Show why something could not be done."""
        ...

    def notify(self, message: str) -> None:
        """A passing notice."""
        ...


class WatchController:
    """Watches the run view's eval sets and agent while watch mode is on."""

    def __init__(self, screen: WatchedView) -> None:
        self.screen = screen
        self.watcher: ChangeWatcher | None = None
        self.batches = 0
        """Change batches handled (for tests and the benchmark)."""
        self.last_change_at: float | None = None
        """``time.perf_counter()`` when the last batch arrived."""
        self._stop: asyncio.Event | None = None
        self.session = ""
        """The watch session's id, marked on the reports of its runs."""
        self._runs = 0
        self._pending: dict[Path, set[str]] = {}
        """Changed cases (file -> eval ids) to rerun once the run in progress ends."""
        self._pending_keys: set[str] = set()
        self._pending_gone: set[str] = set()

    @property
    def active(self) -> bool:
        """Whether watch mode is on."""
        return self._stop is not None and not self._stop.is_set()

    def start(self) -> Coroutine[Any, Any, None]:
        """Turn watch mode on: run what the options select once, then watch the selected
        eval sets and the agent's folder; returns the watch loop, for the view to run as
        a worker (to the end of watch mode). Watch mode is on from this call (a
        :meth:`stop` right after it wins); the eval sets are read in a thread by the
        loop: the key that turned watch mode on is shown at once, and the next key is not
        held up behind the reading."""
        self.stop()
        stop = self._stop = asyncio.Event()
        self.session, self._runs = uuid.uuid4().hex[:12], 0
        screen = self.screen
        choice = screen.options_choice()
        paths = screen.chosen_paths(choice)
        extra = [screen.config_file] if screen.config_file else []
        return self._read_then_watch(choice.agent, paths, extra, screen.search_path, stop)

    async def _read_then_watch(
        self,
        agent: str,
        paths: list[Path],
        extra: list[Path],
        search_path: Path,
        stop: asyncio.Event,
    ) -> None:
        watcher = await asyncio.to_thread(self._watcher, agent, paths, extra, search_path)
        if stop.is_set():
            return  # turned off while the eval sets were read
        self.watcher = watcher
        screen = self.screen
        screen.notify("Watch mode on: saving an eval set or the agent's code reruns it.")
        if not screen.running:
            screen.action_start()  # runs once now (the run later changes are compared with)
        await self._watch(watcher, stop)

    @staticmethod
    def _watcher(
        agent: str, paths: list[Path], extra: list[Path], search_path: Path
    ) -> ChangeWatcher:
        """A watcher of ``paths`` (read now) and of the code of ``agent`` and of every
        agent the eval sets name: editing the code of any of them reruns everything."""
        watcher = ChangeWatcher(paths, extra_files=extra, debounce_ms=DEBOUNCE_MS)
        for spec in {agent.strip(), *watcher.named_agents()} - {""}:
            folder = agent_source_folder(spec, cwd=search_path)
            if folder is not None:
                watcher.add_agent_folder(folder)
        return watcher

    def report_marks(self) -> dict[str, Any]:
        """What the next run's plan adds while watch mode is on: its reports marked as a
        run of this session (``metadata.watch``: the report browser lists a session as
        one row), and, for a rerun, the JSON report only (one report per rerun)."""
        if not self.active:
            return {}
        run = self._runs
        self._runs += 1
        marks = {WATCH_KEY: {"session": self.session, "run": run}}
        return {"report_metadata": marks, "html": run == 0}

    def stop(self) -> None:
        """Turn watch mode off."""
        if self._stop is not None:
            self._stop.set()
        self._stop = None

    async def _watch(self, watcher: ChangeWatcher, stop: asyncio.Event) -> None:
        async for batch in watcher.awatch(stop_event=stop):
            self.batches += 1
            self.last_change_at = time.perf_counter()
            self.handle(watcher, batch)

    def _wait_for_the_run(
        self, only: Mapping[Path, list[str]], keys: Iterable[str], gone: Iterable[str]
    ) -> None:
        """Keep the changed cases to rerun once the run in progress ends; the others in it
        finish undisturbed (a save no longer restarts the whole run)."""
        for path, ids in only.items():
            self._pending.setdefault(path, set()).update(ids)
        self._pending_keys.update(keys)
        self._pending_gone.update(gone)
        if only:
            count = sum(len(ids) for ids in self._pending.values())
            self.screen.notify(
                f"Saved: {count} changed case(s) rerun when this run ends; the others finish."
            )

    def run_ended(self) -> None:
        """The run in progress ended: rerun the cases changed while it ran (their results
        from it ran the old version), carrying every other case over."""
        if not self._pending or not self.active:
            self._pending.clear()
            return
        only = {str(path): sorted(ids) for path, ids in self._pending.items()}
        paths = list(self._pending)
        keys, gone = set(self._pending_keys), set(self._pending_gone)
        self._pending.clear()
        self._pending_keys.clear()
        self._pending_gone.clear()
        screen = self.screen
        scope = {p.resolve() for p in screen.chosen_paths(screen.options_choice())}
        carry = [
            result
            for key, result in screen.last_results.items()
            if key not in keys
            and key not in gone
            and screen.set_paths.get(result.eval_set_id, Path()).resolve() in scope
        ]
        screen.forget_results(gone)
        screen.launch(
            paths, only=only, tags=screen.options_choice().tags, carry=carry, chosen_by="watch"
        )

    def handle(self, watcher: ChangeWatcher, batch: ChangeBatch) -> None:
        """Rerun what ``batch`` affects (the policy is :func:`~tenxeval_tui.runs.watch.rerun_for`)."""
        screen = self.screen
        choice = screen.options_choice()
        selection = CaseSelection(  # the options bar's filter
            eval_ids=tuple(choice.eval_ids) or None, tags=tuple(choice.tags), every_tag=False
        )
        previous = {
            key: screen.set_paths.get(result.eval_set_id, Path())
            for key, result in screen.last_results.items()
        }
        for set_id, eval_id in screen.cases_in_run:  # running now: not "never ran"
            previous.setdefault(case_key(set_id, eval_id), screen.set_paths.get(set_id, Path()))
        rerun = rerun_for(batch, selection, previous)
        if rerun.problems:
            screen.say_problem("Not rerun: " + "; ".join(str(p) for p in rerun.problems))
            return
        if rerun.everything:
            self._pending.clear()
            self._pending_keys.clear()
            screen.action_start()  # what the options select, filter included
            return
        if screen.running:
            self._wait_for_the_run(rerun.only, rerun.keys, rerun.gone)
            return
        if not rerun.only:
            if rerun.gone:
                screen.drop_cases(set(rerun.gone))
            return
        scope = {p.resolve() for p in screen.chosen_paths(choice)}
        carry: list[EvalCaseResult] = [
            result
            for key, result in screen.last_results.items()
            if key not in rerun.keys and key not in rerun.gone and previous[key].resolve() in scope
        ]
        screen.forget_results(rerun.gone)
        only = {str(path): ids for path, ids in rerun.only.items()}
        screen.launch(list(rerun.only), only=only, tags=choice.tags, carry=carry, chosen_by="watch")


__all__ = ["DEBOUNCE_MS", "WatchController"]
