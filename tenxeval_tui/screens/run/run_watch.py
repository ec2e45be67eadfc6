"""Watch mode of the run screen: rerun what a saved file affects.

Change detection is :class:`~tenxeval_tui.runs.watch.ChangeWatcher` (shared with the CLI);
this class decides what to rerun and asks the screen to do it:

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

from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.targets.loader import agent_source_folder
from tenxeval_tui.runs.live_run import case_key
from tenxeval_tui.runs.watch import ChangeBatch, ChangeWatcher
from tenxeval_tui.runs.worker import is_selected

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
        """Rerun what ``batch`` affects."""
        screen = self.screen
        broken = [p for change in batch.eval_sets for p in change.problems]
        if broken:
            screen.say_problem("Not rerun: " + "; ".join(str(p) for p in broken))
            return
        running = screen.process is not None and screen.process.running
        if batch.rerun_all or running:
            screen.action_start()  # what the options select, filter included
            return
        choice = screen.options_choice()
        ids, tags = choice.eval_ids or None, choice.tags  # the options bar's filter
        only: dict[str, list[str]] = {}
        rerun: set[str] = set()
        changed_sets: set[str] = set()
        for change in batch.eval_sets:
            eval_set = change.eval_set
            if eval_set is None:
                continue
            set_id = eval_set.eval_set_id
            changed_sets.add(set_id)
            changed = set(change.cases.changed)
            never_run = {
                c.eval_id
                for c in eval_set.eval_cases
                if case_key(set_id, c.eval_id) not in screen.last_results
            }
            wanted = [
                c.eval_id
                for c in eval_set.eval_cases
                if c.eval_id in changed | never_run and is_selected(c, ids, tags)
            ]
            if wanted:
                only[str(change.path)] = wanted
                rerun.update(case_key(set_id, eval_id) for eval_id in wanted)
        current = {
            case_key(change.eval_set.eval_set_id, c.eval_id)
            for change in batch.eval_sets
            if change.eval_set is not None
            for c in change.eval_set.eval_cases
            if is_selected(c, ids, tags)
        }
        changed_files = {change.path.resolve() for change in batch.eval_sets}
        # Cases no longer in their file (removed, or their set renamed) leave the view.
        gone = {
            key
            for key, result in screen.last_results.items()
            if screen.set_paths.get(result.eval_set_id, Path()).resolve() in changed_files
            and key not in current
        }
        if not only:
            if gone:
                screen.drop_cases(gone)
            return
        scope = {p.resolve() for p in screen.chosen_paths(choice)}
        carry: list[EvalCaseResult] = [
            result
            for key, result in screen.last_results.items()
            if key not in rerun
            and key not in gone
            and screen.set_paths.get(result.eval_set_id, Path()).resolve() in scope
        ]
        for key in gone:
            screen.last_results.pop(key, None)
        screen.launch([Path(p) for p in only], only=only, tags=choice.tags, carry=carry)


__all__ = ["DEBOUNCE_MS", "WatchController"]
