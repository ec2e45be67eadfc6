"""The first step of a run session: the plan's eval sets scanned and their cases selected, as
the worker will select them, checked before any agent is loaded (no UI import).

The parent of a run scans the files (:mod:`~tenxeval_tui.runs.case_scan`: each case's id,
name and tags, not the case); the worker loads them.

:func:`select_for_run` raises :class:`~tenxeval_tui.runs.problems.RunProblem` when a file
does not load, a ``--case`` is in none of the files or nothing is selected, and
:class:`~tenxeval_tui.runs.problems.EmptyShard` when a ``--shard`` part holds none of the
selected cases. What it narrowed (``--limit``, ``--sample``, ``--shard``) is told through
``note``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_eval_set
from tenxeval_tui.runs.plan import RunPlan, chosen_cases, select, shard_part
from tenxeval_tui.runs.problems import EmptyShard, RunProblem

type Loader[S: EvalSet] = Callable[[Sequence[Path]], list[tuple[Path, S]]]
"""How the files are read: scanned (:func:`~tenxeval_tui.runs.case_scan.scan_run_files`,
a run's parent: :class:`~tenxeval_tui.runs.case_scan.ScannedSet` s) or loaded whole
(:func:`~tenxeval_tui.runs.plan.load_eval_sets`)."""


@dataclass(frozen=True, slots=True)
class RunCases[S: EvalSet]:
    """What :func:`chosen_for_run` found: the eval sets holding cases to run, and what the
    plan chose of each set before its ``--shard`` split (the report's
    ``metadata.selection`` counts that; see :mod:`~tenxeval_tui.runs.selection_report`)."""

    selected: list[tuple[Path, S]]
    """The eval sets that hold cases to run, with those cases only."""
    chosen: list[tuple[Path, S]]
    """Every loaded eval set with the cases the plan chose in it (maybe none), unsharded."""
    loaded: list[tuple[Path, S]]
    """Every eval set of the plan as ``load`` read it, with all its cases."""


def select_for_run[S: EvalSet](
    plan: RunPlan, note: Callable[[str], None], load: Loader[S]
) -> list[tuple[Path, S]]:
    """The plan's eval sets that hold selected cases, read by ``load`` (scanned: their
    cases hold only what selecting reads) and filtered (by
    :func:`~tenxeval_tui.runs.plan.select`, as the worker does)."""
    return chosen_for_run(plan, note, load).selected


def chosen_for_run[S: EvalSet](
    plan: RunPlan, note: Callable[[str], None], load: Loader[S]
) -> RunCases[S]:
    """:func:`select_for_run`, with what the plan chose before its shard split and the
    eval sets read (see :class:`RunCases`)."""
    try:
        loaded = load(plan.eval_sets)
    except EvalFileError as exc:
        raise RunProblem(str(exc)) from None
    except FileNotFoundError as exc:
        raise RunProblem(f"{exc.filename}: file not found") from None
    unknown = plan.selection.unknown_ids(c for _, s in loaded for c in s.eval_cases)
    if unknown:
        raise RunProblem(f"--case: no case {', '.join(map(repr, unknown))} in the eval sets")
    chosen = chosen_cases(plan, loaded)
    selected = [(path, s) for path, s in shard_part(plan, chosen) if s.eval_cases]
    if not selected and plan.shard is not None and (among := _count(chosen)):
        raise EmptyShard(f"--shard {plan.shard}: none of the {among} selected cases is in it")
    check_simulators(plan, selected)
    if not selected:
        if plan.selection.filters:
            raise RunProblem("no case matches --tags/--case in the eval sets")
        raise RunProblem(f"{', '.join(map(str, plan.eval_sets))}: no cases to run")
    if plan.limit is not None or plan.sample is not None:
        whole = plan.model_copy(update={"limit": None, "sample": None})
        how = f"--limit {plan.limit}" if plan.limit is not None else f"--sample {plan.sample}"
        seed = f" --seed {plan.seed}" if plan.seed is not None else ""
        among = _count(select(whole, loaded))
        note(f"running {_count(selected)} of {among} selected cases ({how}{seed})")
    if plan.shard is not None:
        note(f"running shard {plan.shard}: {_count(selected)} of {_count(chosen)} selected cases")
    return RunCases(selected, chosen, list(loaded))


def _count(selected: Sequence[tuple[Path, EvalSet]]) -> int:
    return sum(len(eval_set.eval_cases) for _, eval_set in selected)


def check_simulators(plan: RunPlan, selected: Sequence[tuple[Path, EvalSet]]) -> None:
    """The simulated user of each scenario file that will run is set up (its model, key
    and goal judge), before any agent is loaded; :class:`RunProblem` naming the file."""
    config = plan.resolved_config()
    for path, eval_set in selected:
        if is_scenario_eval_set(eval_set):
            # lazy: the simulator (its evaluator and judges) only for a scenario file
            from tenxeval_tui.evaluation.simulators.runner import simulator_for

            try:
                simulator_for(eval_set, config, plan.user_model)
            except ValueError as exc:
                raise RunProblem(f"{path}: {exc} (or give run --user-model MODEL)") from None


__all__ = ["Loader", "RunCases", "check_simulators", "chosen_for_run", "select_for_run"]
