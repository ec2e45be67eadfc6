"""``run``'s word on keys nothing reads in its eval sets and config (typos that silently
check nothing): a warning each on stderr before the run, or with ``--strict`` a usage
error that stops it (see :mod:`tenxeval_tui.evaluation.unknown_keys`)."""

from __future__ import annotations

import sys
from pathlib import Path

from tenxeval_tui.cli.headless import UsageError
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.simulators.scenario import ScenarioSet
from tenxeval_tui.evaluation.unknown_keys import unknown_keys_in_file
from tenxeval_tui.runs.case_scan import ScannedSet, SetScan
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.unknown_keys_stream import eval_set_key_problems
from tenxeval_tui.settings.workspace import is_scenario_path


def unknown_key_problems(
    plan: RunPlan, severity: str = "warning", scanned: dict[Path, ScannedSet] | None = None
) -> list[Problem]:
    """The keys nothing reads in the plan's config file and eval set (scenario) files.
    ``scanned``: each eval set file scanned by the same pass is added (what the run then
    selects from, the file not read again; see :class:`~tenxeval_tui.runs.case_scan.SetScan`)."""
    found: list[Problem] = []
    if plan.config_file is not None:
        found += unknown_keys_in_file(plan.config_file, EvalConfig, severity=severity)
    for path in plan.eval_sets:
        if is_scenario_path(path):
            found += unknown_keys_in_file(path, ScenarioSet, severity=severity)
            continue
        # a case at a time: an eval set of a million cases is never parsed whole
        if scanned is None:
            found += eval_set_key_problems(path, severity=severity)
            continue
        scan = SetScan()
        found += eval_set_key_problems(path, severity=severity, scan=scan)
        if (done := scan.result()) is not None:
            scanned[path] = done
    return found


def warn_unknown_keys(
    plan: RunPlan, *, strict: bool = False, scanned: dict[Path, ScannedSet] | None = None
) -> None:
    """Print each unknown key as a warning; with ``strict``, raise :class:`UsageError`
    listing them instead (nothing runs). ``scanned``: see :func:`unknown_key_problems`."""
    problems = unknown_key_problems(plan, "error" if strict else "warning", scanned)
    if strict and problems:
        listed = "\n".join(str(p) for p in problems)
        raise UsageError(f"--strict: keys nothing reads (typos?):\n{listed}")
    for problem in problems:
        print(inert(str(problem), multiline=True), file=sys.stderr, flush=True)


__all__ = ["unknown_key_problems", "warn_unknown_keys"]
