"""Which scenario files can run now: their simulated user and goal judge are set up.

A folder given to ``tenxeval-tui run``, or "all" in the workbench's run view, finds
scenario files (``*.scenarios.json``) next to eval sets. One whose simulated user has
no model (or no key, or whose goal judge is not set up) would stop the whole run before
it starts; found by a scan, it is skipped instead, with the reason, so the eval sets
still run (a file named on its own is never skipped: the run says what is missing).
No UI import.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.simulators.runner import simulator_for
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file, load_run_file


def simulator_problem(path: Path, config: EvalConfig, user_model: str | None = None) -> str | None:
    """Why the scenario file ``path`` cannot run with ``config`` now (``None``: it can, or
    it is no scenario file, or it does not load: the run names its problems then)."""
    if not is_scenario_file(path):
        return None
    try:
        eval_set = load_run_file(path)
    except (EvalFileError, OSError, ValueError):
        return None
    if not eval_set.eval_cases:
        return None
    try:
        simulator_for(eval_set, config, user_model)
    except ValueError as exc:
        return str(exc)
    return None


def runnable_files(
    found: Iterable[Path], config: EvalConfig, user_model: str | None = None
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """``found`` less the scenario files that cannot run now, and those files with why."""
    keep: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    for path in found:
        problem = simulator_problem(path, config, user_model)
        if problem is None:
            keep.append(path)
        else:
            skipped.append((path, problem))
    return keep, skipped


__all__ = ["runnable_files", "simulator_problem"]
