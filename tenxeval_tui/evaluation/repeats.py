"""Repeats: running a case several times and turning its runs into one case result.

How many times a case runs (first found wins):

1. the case's ``metadata["repeats"]``;
2. the eval set's ``metadata["repeats"]``;
3. ``EvalConfig.repeats`` (default 1).

Each value must be a whole number from 1 to 10,000; anything else is a
:class:`RepeatsError` naming the eval set, the case and the value, raised before
anything runs.

Each repeat is an independent run of the case (a thread id, events and a
collector of its own). :func:`aggregate_repeats` makes the case's result:

- ``passed`` by ``EvalConfig.pass_rule``: ``"all"`` (the default) when every
  repeat passed, or a number ``r`` in (0, 1] when at least that share of the
  repeats passed (an errored repeat counts as not passed);
- ``error`` only when every repeat errored (the first repeat's error);
- one criterion result per criterion: the mean score over the repeats that
  scored it, ``passed`` by the same rule over those repeats, the
  representative repeat's details plus ``repeat_scores`` (each repeat's score);
- the trajectory, tool calls, reply, messages, turns and node data of the
  *representative* repeat: the first whose outcome is the case's (a failing one
  for a failed case), so a reader of the top level sees why it failed;
- tokens, costs and durations summed over the repeats;
- every repeat in ``repeat_results`` and the figures in ``repeat_stats``
  (:class:`~tenxeval_tui.evaluation.stats.RepeatStats`: pass rate, pass@k and
  pass^k for k up to the repeats, score spread per criterion, flips).

A case that runs once is its single run, unchanged (no ``repeat_*`` fields).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig, PassRule
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import REPEAT_KEY, CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.stats import RepeatStats
from tenxeval_tui.evaluation.token_usage import TokenUsage

REPEATS_KEY = "repeats"
"""The metadata key (of an eval set or a case) that sets how many times cases run."""
MAX_REPEATS = 10_000


class RepeatsError(ValueError):
    """A ``repeats`` setting that is not a whole number from 1 to 10,000."""


def _checked(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_REPEATS:
        raise RepeatsError(
            f"{where}: metadata[{REPEATS_KEY!r}] must be a whole number from 1 to "
            f"{MAX_REPEATS}, not {value!r}"
        )
    return value


def resolve_repeats(config: EvalConfig, eval_set: EvalSet | None, case: EvalCase) -> int:
    """How many times ``case`` runs: its metadata, else the eval set's, else the config's."""
    set_id = eval_set.eval_set_id if eval_set is not None else ""
    if REPEATS_KEY in case.metadata:
        return _checked(case.metadata[REPEATS_KEY], f"eval set {set_id!r}, case {case.eval_id!r}")
    if eval_set is not None and REPEATS_KEY in eval_set.metadata:
        return _checked(eval_set.metadata[REPEATS_KEY], f"eval set {set_id!r}")
    return config.repeats


def rule_passes(outcomes: Sequence[bool], rule: PassRule) -> bool:
    """Whether repeats that passed or not as ``outcomes`` says make a passing case."""
    if not outcomes:
        return False
    if rule == "all":
        return all(outcomes)
    # a tolerance so that 4 of 5 meets 0.8 whatever the float rounding
    return sum(1 for o in outcomes if o) / len(outcomes) >= float(rule) - 1e-9


def aggregate_repeats(runs: Sequence[EvalCaseResult], rule: PassRule = "all") -> EvalCaseResult:
    """One case result from the results of its repeats (see the module doc).

    ``runs`` are ordered by their repeat index; a single run is returned as it is.
    """
    if not runs:
        raise ValueError("a case needs at least one run to have a result")
    ordered = sorted(runs, key=lambda r: r.repeat_index)
    if len(ordered) == 1:
        return ordered[0]
    outcomes = [r.passed for r in ordered]
    passed = rule_passes(outcomes, rule)
    all_errored = all(r.is_error for r in ordered)
    representative = next((i for i, r in enumerate(ordered) if r.passed == passed), 0)
    shown = ordered[representative]
    criteria, scores = _criteria(ordered, shown, rule)
    metadata = {k: v for k, v in shown.metadata.items() if k != REPEAT_KEY}
    return shown.model_copy(
        update={
            "passed": passed and not all_errored,
            "error": ordered[0].error if all_errored else None,
            "criterion_results": criteria,
            "duration_seconds": sum(r.duration_seconds for r in ordered),
            "token_usage": sum((r.token_usage for r in ordered), TokenUsage()),
            "agent_token_usage": sum((r.agent_token_usage for r in ordered), TokenUsage()),
            "cost_usd": _total_cost(r.cost_usd for r in ordered),
            "metadata": metadata,
            "repeat_results": list(ordered),
            "repeat_stats": RepeatStats.of(
                outcomes,
                errored=sum(1 for r in ordered if r.is_error),
                scores=scores,
                pass_rule=rule,
                representative=representative,
            ),
        }
    )


def _total_cost(costs: Iterable[float | None]) -> float | None:
    """The sum of the costs that are known, or ``None`` when none is (no price table)."""
    known = [c for c in costs if c is not None]
    return sum(known) if known else None


def _criteria(
    runs: list[EvalCaseResult], shown: EvalCaseResult, rule: PassRule
) -> tuple[list[CriterionResult], dict[str, list[float]]]:
    """Each criterion's aggregate over the runs that scored it, and its scores."""
    by_name: dict[str, list[CriterionResult]] = {}
    for run in runs:
        for cr in run.criterion_results:
            by_name.setdefault(cr.criterion, []).append(cr)
    aggregated: list[CriterionResult] = []
    for name, results in by_name.items():
        own = shown.get_criterion_result(name) or results[0]
        scores = [cr.score for cr in results]
        errors = [cr.error for cr in results if cr.error is not None]
        aggregated.append(
            CriterionResult(
                criterion=name,
                score=sum(scores) / len(scores),
                passed=rule_passes([cr.passed for cr in results], rule),
                threshold=own.threshold,
                details={**own.details, "repeat_scores": scores},
                error=errors[0] if len(errors) == len(results) else None,
                token_usage=sum((cr.token_usage for cr in results), TokenUsage()),
                cost_usd=_total_cost(cr.cost_usd for cr in results),
            )
        )
    return aggregated, {name: [cr.score for cr in rs] for name, rs in by_name.items()}


__all__ = [
    "MAX_REPEATS",
    "REPEATS_KEY",
    "RepeatsError",
    "aggregate_repeats",
    "resolve_repeats",
    "rule_passes",
]
