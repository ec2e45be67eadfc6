"""``tenxeval-tui run --watch``: rerun on changes, each rerun in a child process.

A child process per rerun gives the agent fresh imports every time (no stale
modules, no state left over from the previous run). When only eval sets
changed, only those are rerun; agent code or the config file changing reruns
everything. Ctrl-C stops the current run and the watch, with exit code 130.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tenxeval_tui.cli.headless import EXIT_INTERRUPTED, RunPlan


def child_argv(args: argparse.Namespace) -> list[str]:
    """The ``run`` flags of ``args`` for a rerun (no paths, no ``--watch``, no ``--open``)."""
    argv: list[str] = []
    for flag, value in (
        ("--agent", args.agent),
        ("--config", args.config),
        ("--preset", args.preset),
        ("--concurrency", args.concurrency),
        ("--timeout", args.timeout),
        ("--output-dir", args.output_dir),
    ):
        if value is not None:
            argv += [flag, str(value)]
    argv += ["--threshold", str(args.threshold)]
    for tags in args.tags or ():
        argv += ["--tags", tags]
    for case in args.cases or ():
        argv += ["--case", case]
    for module in getattr(args, "criteria_modules", None) or ():
        argv += ["--criteria-module", module]
    for flag, on in (
        ("--junit", args.junit),
        ("--no-html", args.no_html),
        ("--quiet", args.quiet),
        ("--verbose", args.verbose),
    ):
        if on:
            argv.append(flag)
    return argv


def _say(text: str) -> None:
    from tenxeval_tui.evaluation.inert import inert

    print(inert(f"[watch] {text}", multiline=True), flush=True)


def _run_child(argv: Sequence[str], files: Sequence[Path]) -> int:
    command = [sys.executable, "-m", "tenxeval_tui.cli", "run", *argv, *map(str, files)]
    child = subprocess.Popen(command)
    try:
        return child.wait()
    except KeyboardInterrupt:
        # The terminal sent SIGINT to the child too: give it a moment to stop cleanly.
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise


def _describe(batch: object) -> list[str]:
    from tenxeval_tui.runs.watch import ChangeBatch

    assert isinstance(batch, ChangeBatch)
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


def watch_loop(plan: RunPlan, args: argparse.Namespace) -> int:
    """Run once, then rerun on every relevant change until Ctrl-C (returns 130)."""
    from tenxeval_tui.evaluation.targets.loader import agent_source_folder
    from tenxeval_tui.runs.watch import ChangeWatcher

    argv = child_argv(args)
    watcher = ChangeWatcher(
        [Path(p) for p in args.paths] or plan.files,
        extra_files=[plan.config_file] if plan.config_file else [],
    )
    # --agent, and the agents eval sets name themselves (unless --agent overrides them)
    specs = {plan.agent} if plan.agent_explicit else {plan.agent, *watcher.named_agents()}
    for spec in sorted(specs - {""}):
        folder = agent_source_folder(spec, cwd=plan.agent_folder)
        if folder is None:
            _say(f"the code of {spec} is not under {plan.agent_folder}: not watched")
        else:
            watcher.add_agent_folder(folder)
    try:
        code = _run_child(argv + (["--open"] if args.open else []), plan.files)
        _say(f"run 1 finished (exit {code}); watching for changes, Ctrl-C to stop")
        for number, batch in enumerate(watcher.watch(), start=2):
            for line in _describe(batch):
                _say(line)
            files = watcher.files_to_rerun(batch)
            if not files:
                _say("nothing to rerun; watching for changes")
                continue
            code = _run_child(argv, files)
            _say(
                f"run {number} finished (exit {code}, {len(files)} eval set"
                f"{'s' if len(files) != 1 else ''}); watching for changes, Ctrl-C to stop"
            )
    except KeyboardInterrupt:
        _say("stopped")
        return EXIT_INTERRUPTED
    return EXIT_INTERRUPTED


__all__ = ["child_argv", "watch_loop"]
