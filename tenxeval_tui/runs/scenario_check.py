"""Which scenario files can run now: their simulated user and goal judge are set up.

A folder given to ``tenxeval-tui run``, or "all" in the workbench's run view, finds
scenario files (``*.scenarios.json``) next to eval sets. One whose simulated user has
no model (or no key, or whose goal judge is not set up) would stop the whole run before
it starts; found by a scan, it is skipped instead, with the reason, so the eval sets
still run (a file named on its own is never skipped: the run says what is missing).
No UI import.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.judges.models import ENV_BASE_URL, ENV_JUDGE_BASE_URL, ENV_JUDGE_MODEL
from tenxeval_tui.evaluation.simulators.runner import simulator_for
from tenxeval_tui.evaluation.simulators.scenario_sets import (
    file_simulator_config,
    is_scenario_file,
    load_run_file,
)
from tenxeval_tui.evaluation.simulators.user_simulator import ENV_USER_MODEL

JUDGE_MODEL_SETTINGS = (
    f"judge_model in [tool.tenxeval], judge.model in your settings file or ${ENV_JUDGE_MODEL}"
)
JUDGE_ENDPOINT_SETTINGS = (
    f"judge_base_url in [tool.tenxeval], judge.base_url in your settings file, "
    f"${ENV_JUDGE_BASE_URL} or ${ENV_BASE_URL}"
)


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
        return setup_problem(eval_set, config, user_model) or str(exc)
    return None


def setup_problem(
    eval_set: EvalSet,
    config: EvalConfig,
    user_model: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """What a scenario file's run lacks, said as the settings a user sets (the file's
    ``user_simulator_config``, ``[tool.tenxeval]``, the settings file, the environment),
    not as the core's config fields; ``None`` when none of the usual pieces is missing."""
    env = os.environ if environ is None else environ
    needs: list[str] = []
    models = [user_model, env.get(ENV_USER_MODEL), env.get(ENV_JUDGE_MODEL)]
    for source in (file_simulator_config(eval_set), config.user_simulator_config):
        if source is not None and "model" in source.model_fields_set:
            models.append(source.model)
    if not any(models):
        needs.append(
            'a model for the simulated user: "model" in the file\'s "user_simulator_config", '
            f"${ENV_USER_MODEL}, or a judge model ({JUDGE_MODEL_SETTINGS})"
        )
    goals = config.criteria.simulation_goals or CriterionConfig()
    if goals.enabled and not (goals.judge_model or env.get(ENV_JUDGE_MODEL)):
        needs.append(f"a judge model for its goals ({JUDGE_MODEL_SETTINGS})")
    endpoint = goals.judge_base_url or env.get(ENV_JUDGE_BASE_URL) or env.get(ENV_BASE_URL)
    if not env.get(goals.judge_api_key_env) and not endpoint:
        needs.append(
            f"an API key in ${goals.judge_api_key_env}, or a local endpoint that needs none "
            f"({JUDGE_ENDPOINT_SETTINGS})"
        )
    return f"it needs {'; and '.join(needs)}" if needs else None


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


__all__ = ["runnable_files", "setup_problem", "simulator_problem"]
