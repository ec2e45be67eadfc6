"""Reports over results read as they are needed (:mod:`.journal_results`), put together
without reading their results into lists: :meth:`EvalReport.combine` and a report with a
few more results, each the same report, value for value, as the list-making way gives."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    PARTIAL_KEY,
    EvalCaseResult,
    EvalReport,
    EvalSummary,
    combined_fields,
    tagged_with_set,
)
from tenxeval_tui.evaluation.results.journal_results import (
    HeldKeys,
    LazyResults,
    held_keys,
    streamed_report,
)


class ChainedResults(LazyResults):
    """Several sequences of results one after the other, each result of a part tagged with
    its part's eval set (as :meth:`EvalReport.combine` tags them) when one is given."""

    def __init__(self, parts: Sequence[tuple[Sequence[EvalCaseResult], str | None]]) -> None:
        self._parts = list(parts)

    def __len__(self) -> int:
        return sum(len(results) for results, _ in self._parts)

    def keys_held(self) -> HeldKeys:
        held = HeldKeys()
        for results, set_id in self._parts:
            held.update(held_keys(results))
            if set_id is not None:
                held.metadata.add(EVAL_SET_ID_KEY)  # tagged_with_set
        return held

    def _get(self, index: int) -> EvalCaseResult:
        for results, set_id in self._parts:
            if index < len(results):
                result = results[index]
                return result if set_id is None else tagged_with_set(result, set_id)
            index -= len(results)
        raise IndexError("result index out of range")  # pragma: no cover - checked before

    def __iter__(self) -> Iterator[EvalCaseResult]:
        for results, set_id in self._parts:
            for result in results:
                yield result if set_id is None else tagged_with_set(result, set_id)


class ReplacedResults(LazyResults):
    """A sequence of results with some replaced, each by the result of the same case
    (eval set and id) in ``newer``."""

    def __init__(
        self,
        results: Sequence[EvalCaseResult],
        set_id: str,
        newer: dict[tuple[str, str], EvalCaseResult],
    ) -> None:
        self._results = results
        self._set_id = set_id
        self._newer = newer

    def __len__(self) -> int:
        return len(self._results)

    def _swap(self, result: EvalCaseResult) -> EvalCaseResult:
        return self._newer.get((result.eval_set_id or self._set_id, result.eval_id), result)

    def _get(self, index: int) -> EvalCaseResult:
        return self._swap(self._results[index])

    def __iter__(self) -> Iterator[EvalCaseResult]:
        for result in self._results:
            yield self._swap(result)

    def keys_held(self) -> HeldKeys:
        held = HeldKeys()
        held.update(held_keys(self._results))
        held.update(held_keys(list(self._newer.values())))
        return held


def merged_streamed(
    base: EvalReport, newer: EvalReport, eval_set: EvalSet | None
) -> EvalReport | None:
    """``subsets.merge_results(base, newer, eval_set)`` with ``base``'s results left where
    they are, when it can be: ``base`` holds a result of every case of ``eval_set``, in its
    order, and ``newer`` only cases ``base`` has (a retry of its errored cases); else
    ``None`` (merge the lists)."""
    if eval_set is None or len(base.results) != len(eval_set.eval_cases):
        return None
    replaced = {_key(newer, result): result for result in newer.results}
    found = 0
    for result, case in zip(base.results, eval_set.eval_cases, strict=True):
        key = _key(base, result)
        if key != (eval_set.eval_set_id, case.eval_id):
            return None
        found += key in replaced
    if found != len(replaced):
        return None
    metadata = {k: v for k, v in base.metadata.items() if k != PARTIAL_KEY}
    if newer.is_partial:
        metadata[PARTIAL_KEY] = True
    walls = [r.summary.wall_seconds for r in (base, newer) if r.summary.wall_seconds is not None]
    results = ReplacedResults(base.results, base.eval_set_id, replaced)
    return streamed_report(
        results,
        EvalSummary.from_result_stream(results),
        eval_set_id=base.eval_set_id,
        eval_set_name=base.eval_set_name,
        config_used=newer.config_used or base.config_used,
        metadata=metadata,
        wall_seconds=sum(walls) if walls else None,
    )


def _key(report: EvalReport, result: EvalCaseResult) -> tuple[str, str]:
    return (result.eval_set_id or report.eval_set_id, result.eval_id)


def combined_streamed(
    reports: Sequence[EvalReport],
    eval_set_id: str = "combined_eval",
    eval_set_name: str = "Combined Evaluation",
    planned: Sequence[int | None] | None = None,
) -> EvalReport:
    """:meth:`EvalReport.combine` of ``reports``, their results left where they are (the
    summary worked out in one pass over them); ``planned``: the cases each one's run was to
    run, when known (see :func:`~tenxeval_tui.evaluation.eval_result.combined_fields`)."""
    results = ChainedResults([(report.results, report.eval_set_id) for report in reports])
    fields = combined_fields(reports, planned)
    return streamed_report(
        results,
        EvalSummary.from_result_stream(results),
        eval_set_id=eval_set_id,
        eval_set_name=eval_set_name,
        **fields,
    )


def with_results_added(report: EvalReport, more: Sequence[EvalCaseResult]) -> EvalReport:
    """``EvalReport.create`` of ``report``'s results then ``more`` (its id, name and
    metadata kept; its config and wall time not, as there), its results left where they
    are."""
    results = ChainedResults([(report.results, None), (list(more), None)])
    return streamed_report(
        results,
        EvalSummary.from_result_stream(results),
        eval_set_id=report.eval_set_id,
        eval_set_name=report.eval_set_name,
        metadata=report.metadata,
    )


__all__ = [
    "ChainedResults",
    "ReplacedResults",
    "combined_streamed",
    "merged_streamed",
    "with_results_added",
]
