"""Watch mode of the run screen: rerun what a saved file affects.

Change detection (:class:`~tenxeval_tui.runs.watch.ChangeWatcher`) and the policy of what
reruns (:func:`~tenxeval_tui.runs.watch.rerun_for`) are shared with ``run --watch``; this
class applies them to the screen:

- agent code (or the eval config) changed: everything selected reruns, in a new
  worker process (fresh imports);
- eval sets changed: only their added or modified cases rerun (and any case with no
  result yet); every other case is shown carried over from the last run;
- a change while a run is in progress restarts that run whole.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.targets.loader import agent_source_folder
from tenxeval_tui.runs.watch import ChangeBatch, ChangeWatcher, rerun_for

if TYPE_CHECKING:
    from tenxeval_tui.screens.run.run import RunScreen

# Watch mode reacts within this long after the last write of a save.
DEBOUNCE_MS = 150


class WatchController:
    """Watches the run screen's eval sets and agent while watch mode is on."""

    def __init__(self, screen: RunScreen) -> None:
        self.screen = screen
        self.watcher: ChangeWatcher | None = None
        self.batches = 0
        """Change batches handled (for tests and the benchmark)."""
        self.last_change_at: float | None = None
        """``time.perf_counter()`` when the last batch arrived."""
        self._stop: asyncio.Event | None = None

    @property
    def active(self) -> bool:
        """Whether watch mode is on."""
        return self._stop is not None and not self._stop.is_set()

    def start(self) -> None:
        """Turn watch mode on: run what the options select once, then watch the selected
        eval sets and the agent's folder."""
        self.stop()
        screen = self.screen
        choice = screen.options_choice()
        paths = screen.chosen_paths(choice)
        extra = [screen.config_file] if screen.config_file else []
        self.watcher = ChangeWatcher(paths, extra_files=extra, debounce_ms=DEBOUNCE_MS)
        # The agent typed in, and every agent the eval sets name themselves: editing the
        # code of any of them reruns everything.
        for spec in {choice.agent.strip(), *self.watcher.named_agents()} - {""}:
            folder = agent_source_folder(spec, cwd=screen.search_path)
            if folder is not None:
                self.watcher.add_agent_folder(folder)
        self._stop = asyncio.Event()
        screen.run_worker(self._watch(self.watcher, self._stop), group="watch", exclusive=True)
        screen.notify("Watch mode on: saving an eval set or the agent's code reruns it.")
        if not (screen.process is not None and screen.process.running):
            screen.action_start()  # runs once now (the run later changes are compared with)

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
        rerun = rerun_for(batch, selection, previous)
        if rerun.problems:
            screen.say_problem("Not rerun: " + "; ".join(str(p) for p in rerun.problems))
            return
        running = screen.process is not None and screen.process.running
        if rerun.everything or running:
            screen.action_start()  # what the options select, filter included
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
        for key in rerun.gone:
            screen.last_results.pop(key, None)
        only = {str(path): ids for path, ids in rerun.only.items()}
        screen.launch(list(rerun.only), only=only, tags=choice.tags, carry=carry)


__all__ = ["DEBOUNCE_MS", "WatchController"]
