"""``tenxeval-tui run`` and scenario files: which can run, and what their simulated user needs.

A scenario file found by scanning a folder is skipped (with the reason on stderr) when its
simulated user or goal judge is not set up, so a folder of eval sets with a scenario file
beside it still runs; a scenario file that will run is checked before any agent is loaded
(:class:`~tenxeval_tui.cli.usage.UsageError` naming the file). Only the standard library
is imported at module level (``--help`` stays fast).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.cli.usage import UsageError
from tenxeval_tui.evaluation.inert import inert

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig


def skip_unready_scenarios(
    files: list[Path], scanned: set[Path], config: EvalConfig, user_model: str | None
) -> list[Path]:
    """``files`` less the scenario files a folder scan found whose simulated user is not set
    up (each skipped with its reason on stderr); :class:`UsageError` when none is left."""
    from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file

    found = [f for f in files if f in scanned and is_scenario_file(f)]
    if not found:
        return files
    # lazy: the simulator check (its evaluator and judges) only when a scenario file was found
    from tenxeval_tui.runs.scenario_check import runnable_files

    _, skipped = runnable_files(found, config, user_model)
    for path, problem in skipped:
        print(
            inert(f"tenxeval-tui run: skipped {path}: {problem} (or give --user-model MODEL)"),
            file=sys.stderr,
        )
    left = [f for f in files if f not in {path for path, _ in skipped}]
    if files and not left:
        raise UsageError("no file left to run: the scenario files found cannot run (see above)")
    return left


__all__ = ["skip_unready_scenarios"]
