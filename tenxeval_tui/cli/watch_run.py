"""``tenxeval-tui run --watch``: rerun on changes, each rerun in a fresh worker process.

What a change reruns is the workbench's watch policy
(:func:`~tenxeval_tui.runs.watch.rerun_for`): the config file changing only in its
criteria re-scores the last results (no agent runs); agent code or the config otherwise
changing reruns every selected case (the plan is built again from the flags and
settings, so the config is read anew and a new eval set file in a watched folder joins);
an eval set changing reruns only its selected cases that are new or modified. Each run is a
run session as ``run``'s (:class:`~tenxeval_tui.runs.session.RunSession`): a worker child per
run gives the agent fresh imports every time. Ctrl-C stops the current run and the watch,
with exit code 130.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tenxeval_tui.cli.headless import EXIT_USAGE, UsageError
from tenxeval_tui.cli.run_display import ConsoleDisplay
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.live_run import case_key
from tenxeval_tui.runs.outcome import EXIT_FAILED, EXIT_INTERRUPTED
from tenxeval_tui.runs.plan import RunPlan, load_eval_sets
from tenxeval_tui.runs.problems import RunProblem
from tenxeval_tui.runs.rescore import rescored_reports
from tenxeval_tui.runs.run_selection import select_for_run
from tenxeval_tui.runs.session import RunSession, SessionOptions
from tenxeval_tui.runs.watch import ChangeBatch, ChangeWatcher, Rerun, rerun_for


def _say(text: str) -> None:
    print(inert(f"[watch] {text}", multiline=True), flush=True)


def _usage_problem(exc: UsageError | RunProblem) -> None:
    print(inert(f"tenxeval-tui run: {exc}", multiline=True), file=sys.stderr)


class _Runs:
    """What the watched runs did so far: the file of every case run, its last result."""

    def __init__(self) -> None:
        self.files: dict[str, Path] = {}
        self.last: dict[str, EvalCaseResult] = {}

    def add(self, selected: Sequence[tuple[Path, EvalSet]], reports: Sequence[EvalReport]) -> None:
        self.files.update(
            {case_key(s.eval_set_id, c.eval_id): path for path, s in selected for c in s.eval_cases}
        )
        self.last.update(
            {case_key(r.eval_set_id, r.eval_id): r for p in reports for r in p.results}
        )

    def forget(self, keys: frozenset[str]) -> None:
        for key in keys:
            self.files.pop(key, None)
            self.last.pop(key, None)


class _Watch:
    """The session of each run of a watch, and what the runs did so far."""

    def __init__(
        self, options: SessionOptions, display: ConsoleDisplay, rebuild: Callable[[], RunPlan]
    ) -> None:
        self.options = options
        self.display = display
        self.rebuild = rebuild
        self.runs = _Runs()

    def run(self, plan: RunPlan) -> tuple[int, int]:
        """Run ``plan`` as ``run`` does; ``(exit code, eval sets run)``, remembered; a usage
        error is printed (exit code 2)."""
        try:
            outcome = RunSession(plan, self.options, self.display).run()
        except (UsageError, RunProblem) as exc:
            _usage_problem(exc)
            return EXIT_USAGE, 0
        self.runs.add(outcome.selected, outcome.reports)
        if outcome.exit_code == EXIT_INTERRUPTED:
            raise KeyboardInterrupt
        return outcome.exit_code, len(outcome.selected)

    def rescore(self, plan: RunPlan) -> tuple[int, int]:
        """Score the last results again with ``plan``'s criteria (no agent runs); a case
        with no last result makes it a run."""
        try:
            selected = select_for_run(plan, self.display.note, load=load_eval_sets)  # re-scored
        except RunProblem as exc:
            _usage_problem(exc)
            return EXIT_USAGE, 0
        config = plan.resolved_config()
        reports = rescored_reports(selected, self.runs.last, config)
        if reports is None:
            return self.run(plan)
        _say(f"only the criteria changed: re-scoring the last results of {len(selected)} eval sets")
        self.runs.add(selected, reports)
        published = RunSession(plan, self.options, self.display).publish(reports, config)
        return EXIT_FAILED if published.errors else published.exit_code, len(selected)

    def fresh_plan(self) -> RunPlan | None:
        """The plan built anew from the flags and settings (a usage problem is printed)."""
        try:
            return self.rebuild()  # the config read anew, new files in folders found
        except UsageError as exc:
            _usage_problem(exc)
            return None

    def act(self, plan: RunPlan, rerun: Rerun) -> tuple[int, int] | None:
        """Carry out ``rerun`` with ``plan`` (the plan after the batch); ``None``: nothing ran."""
        self.runs.forget(rerun.gone)
        if rerun.rescore:
            return self.rescore(plan)
        if rerun.everything:
            return self.run(plan)
        for path, ids in rerun.only.items():
            _say(f"rerunning {path.name}: {', '.join(ids)}")
        return self.run(plan.rerunning(rerun.only, "watch")) if rerun.only else None


def _describe(batch: ChangeBatch) -> list[str]:
    lines: list[str] = []
    if batch.agent_changed:
        lines.append("agent code changed: rerunning every eval set")
    for path in batch.extra_changed:
        lines.append(f"{path.name} changed: rerunning every eval set")
    for change in batch.eval_sets:
        if change.eval_set is None:
            lines.append(f"{change.path} does not load; not rerun:")
            lines.extend(f"  {problem}" for problem in change.problems)
            continue
        cases = change.cases
        parts = [
            f"{label} {', '.join(ids)}"
            for label, ids in (
                ("added", cases.added),
                ("modified", cases.modified),
                ("removed", cases.removed),
            )
            if ids
        ]
        lines.append(f"{change.path.name} changed ({'; '.join(parts) or 'no case changed'})")
    lines.extend(f"{path} was removed" for path in batch.removed_eval_sets)
    return lines


def _watcher(plan: RunPlan, paths: Sequence[str]) -> ChangeWatcher:
    """A watcher of the plan's eval sets (or the folders named), config file and agents."""
    from tenxeval_tui.evaluation.targets.loader import agent_source_folder

    watcher = ChangeWatcher(
        [Path(p) for p in paths] or plan.eval_sets,
        extra_files=[plan.config_file] if plan.config_file else [],
    )
    # --agent, and the agents eval sets name themselves (unless --agent overrides them)
    specs = {plan.agent} if plan.agent_explicit else {plan.agent, *watcher.named_agents()}
    agents_folder = plan.search_path or Path.cwd()
    for spec in sorted(specs - {""}):
        folder = agent_source_folder(spec, cwd=agents_folder)
        if folder is None:
            _say(f"the code of {spec} is not under {agents_folder}: not watched")
        else:
            watcher.add_agent_folder(folder)
    return watcher


def watch_loop(
    plan: RunPlan,
    options: SessionOptions,
    display: ConsoleDisplay,
    rebuild: Callable[[], RunPlan],
    paths: Sequence[str] = (),
) -> int:
    """Run once, then rerun on every relevant change until Ctrl-C (returns 130). ``rebuild``
    makes the plan anew from the flags and settings (agent code or the config changed);
    ``paths`` are the files and folders named (watched for new eval sets)."""
    watcher = _watcher(plan, paths)
    watch = _Watch(options, display, rebuild)
    try:
        code, _ = watch.run(plan)
        _say(f"run 1 finished (exit {code}); watching for changes, Ctrl-C to stop")
        watch.display = dataclasses.replace(display, open_html=False)  # once is enough
        for number, batch in enumerate(watcher.watch(), start=2):
            for line in _describe(batch):
                _say(line)
            fresh = watch.fresh_plan() if batch.rerun_all else plan
            if fresh is None:
                continue
            configs = (plan.resolved_config(), fresh.resolved_config())
            done = watch.act(fresh, rerun_for(batch, plan.selection, watch.runs.files, configs))
            plan = fresh
            if done is None:
                _say("nothing to rerun; watching for changes")
                continue
            code, sets = done
            _say(
                f"run {number} finished (exit {code}, {sets} eval set"
                f"{'s' if sets != 1 else ''}); watching for changes, Ctrl-C to stop"
            )
    except KeyboardInterrupt:
        _say("stopped")
        return EXIT_INTERRUPTED
    return EXIT_INTERRUPTED


__all__ = ["watch_loop"]
