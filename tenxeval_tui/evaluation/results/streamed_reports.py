"""Reports over results read as they are needed (:mod:`.journal_results`), put together
without reading their results into lists: :meth:`EvalReport.combine` and a report with a
few more results, each the same report, value for value, as the list-making way gives."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
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


def combined_streamed(
    reports: Sequence[EvalReport],
    eval_set_id: str = "combined_eval",
    eval_set_name: str = "Combined Evaluation",
) -> EvalReport:
    """:meth:`EvalReport.combine` of ``reports``, their results left where they are (the
    summary worked out in one pass over them)."""
    results = ChainedResults([(report.results, report.eval_set_id) for report in reports])
    fields = combined_fields(reports)
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


__all__ = ["ChainedResults", "combined_streamed", "with_results_added"]
