"""Running part of an eval set: a limit or a seeded sample, the rest of a killed run, retries.

What the front ends' ``--limit``, ``--sample --seed``, ``--resume`` and
``--retry-errors`` rest on, with no process, file-name or flag handling here:

- :func:`pick_cases`: the first ``limit`` cases, or ``sample`` of them drawn with
  ``seed`` (kept in file order), after whatever filters came before;
- :func:`unfinished`: the cases of an eval set that a (partial) report has no
  result for, e.g. the report :func:`~tenxeval_tui.evaluation.results.journal.report_from_journal`
  rebuilt from a killed run's journal;
- :func:`merge_results`: a report's results with newer results of the same cases
  put in their place (and new ones added), in the eval set's order;
- :func:`errored_ids` and :func:`evaluate_with_retries`: run, then run the errored
  cases again, up to ``retries`` times, keeping each case's last result.

Cases are matched by ``(eval set id, eval_id)`` as everywhere else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, EvalCaseResult, EvalReport

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator


def pick_cases(
    cases: Sequence[EvalCase],
    *,
    limit: int | None = None,
    sample: int | None = None,
    seed: int | None = None,
) -> list[EvalCase]:
    """The first ``limit`` of ``cases``, or ``sample`` of them drawn with ``seed``.

    A sample keeps the cases' order; the same seed picks the same cases. Asking for
    more than there are gives them all; both at once, or a count below 1, is a
    ``ValueError`` saying so.
    """
    if limit is not None and sample is not None:
        raise ValueError("pick either a limit or a sample of cases, not both")
    for name, count in (("limit", limit), ("sample", sample)):
        if count is not None and count < 1:
            raise ValueError(f"{name} must be at least 1, not {count}")
    if limit is not None:
        return list(cases[:limit])
    if sample is not None and sample < len(cases):
        chosen = set(random.Random(seed).sample(range(len(cases)), sample))
        return [case for index, case in enumerate(cases) if index in chosen]
    return list(cases)


def _key(report: EvalReport, result: EvalCaseResult) -> tuple[str, str]:
    return (result.eval_set_id or report.eval_set_id, result.eval_id)


def unfinished(eval_set: EvalSet, report: EvalReport | None) -> EvalSet:
    """``eval_set`` holding only the cases ``report`` has no result for."""
    if report is None:
        return eval_set
    done = {_key(report, r) for r in report.results}
    cases = [c for c in eval_set.eval_cases if (eval_set.eval_set_id, c.eval_id) not in done]
    return eval_set.model_copy(update={"eval_cases": cases})


def errored_ids(report: EvalReport) -> list[str]:
    """The ``eval_id`` of every case of ``report`` that errored, in report order."""
    return [r.eval_id for r in report.results if r.is_error]


def merge_results(
    base: EvalReport, newer: EvalReport, eval_set: EvalSet | None = None
) -> EvalReport:
    """``base`` with ``newer``'s results in place of its results of the same cases.

    Cases only ``newer`` has are added. With ``eval_set``, results follow its case
    order (cases it does not hold come last). The summary is computed again; the
    report is partial when ``newer`` is (its run was cancelled), else when a case of
    ``eval_set`` still has no result.
    """
    results: dict[tuple[str, str], EvalCaseResult] = {_key(base, r): r for r in base.results}
    for result in newer.results:
        results[_key(newer, result)] = result
    ordered = list(results.values())
    if eval_set is not None:
        position = {(eval_set.eval_set_id, c.eval_id): i for i, c in enumerate(eval_set)}
        ordered.sort(key=lambda r: position.get(_key(base, r), len(position)))
    partial = newer.is_partial or (
        eval_set is not None
        and any((eval_set.eval_set_id, c.eval_id) not in results for c in eval_set)
    )
    metadata = {k: v for k, v in base.metadata.items() if k != PARTIAL_KEY}
    if partial:
        metadata[PARTIAL_KEY] = True
    return EvalReport.create(
        eval_set_id=base.eval_set_id,
        results=ordered,
        eval_set_name=base.eval_set_name,
        config_used=newer.config_used or base.config_used,
        metadata=metadata,
        wall_seconds=_wall(base, newer),
    )


def _wall(*reports: EvalReport) -> float | None:
    """The wall time of runs one after the other: the sum of those known."""
    known = [r.summary.wall_seconds for r in reports if r.summary.wall_seconds is not None]
    return sum(known) if known else None


async def evaluate_with_retries(
    evaluator: AgentEvaluator,
    eval_set: EvalSet,
    retries: int,
    *,
    done: EvalReport | None = None,
) -> EvalReport:
    """Evaluate ``eval_set`` (skipping the cases ``done`` already has), then evaluate its
    errored cases again, up to ``retries`` more times; each case keeps its last result.

    Reports are not written here (``run_reporters=False``): write the returned one.
    A case that still errors after the retries is reported as errored.
    """
    if retries < 0:
        raise ValueError(f"retries must be 0 or more, not {retries}")
    todo = unfinished(eval_set, done)
    report = await evaluator.evaluate(todo, run_reporters=False)
    if done is not None:
        report = merge_results(done, report, eval_set)
    for _ in range(retries):
        again = set(errored_ids(report))
        if not again or report.is_partial:
            break
        subset = eval_set.model_copy(
            update={"eval_cases": [c for c in eval_set.eval_cases if c.eval_id in again]}
        )
        report = merge_results(
            report, await evaluator.evaluate(subset, run_reporters=False), eval_set
        )
    return report


__all__ = [
    "errored_ids",
    "evaluate_with_retries",
    "merge_results",
    "pick_cases",
    "unfinished",
]
