"""A run's summary as running totals: its results added one at a time, none of them kept.

:class:`SummaryTotals` is what :meth:`EvalSummary.from_results
<tenxeval_tui.evaluation.eval_result.EvalSummary.from_results>` computes, in one pass over
results that may come from a file a case at a time (a run journal of a million cases):
the counts, each criterion's figures, the tokens, the costs and the repeats' figures are
totals; only ``per_case_token_usage`` (one entry a case, part of every report) grows.
Every figure is exactly the one the whole list gives, floating-point sums included (they
are added as Python's ``sum()`` adds them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from tenxeval_tui.evaluation.stats import RepeatStats, RepeatTotals
from tenxeval_tui.evaluation.token_usage import TokenUsage


class _Scored(Protocol):
    """What a criterion result gives the totals (an ``eval_result.CriterionResult``)."""

    @property
    def criterion(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def score(self) -> float: ...
    @property
    def cost_usd(self) -> float | None: ...


class CaseFigures(Protocol):
    """What a case result gives the totals (an ``eval_result.EvalCaseResult``, which
    imports this module)."""

    @property
    def eval_id(self) -> str: ...
    @property
    def eval_set_id(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def is_error(self) -> bool: ...
    @property
    def criterion_results(self) -> Sequence[_Scored]: ...
    @property
    def token_usage(self) -> TokenUsage: ...
    @property
    def duration_seconds(self) -> float: ...
    @property
    def cost_usd(self) -> float | None: ...
    @property
    def repeat_stats(self) -> RepeatStats | None: ...


class FloatSum:
    """A running ``sum()`` of floats, equal to it bit for bit: since Python 3.12, ``sum()``
    adds floats with Neumaier's compensation, which a plain ``+=`` does not."""

    def __init__(self) -> None:
        self._sum = 0.0
        self._compensation = 0.0

    def add(self, value: float) -> None:
        value = float(value)
        total = self._sum + value
        if abs(self._sum) >= abs(value):
            self._compensation += (self._sum - total) + value
        else:
            self._compensation += (value - total) + self._sum
        self._sum = total

    @property
    def value(self) -> float:
        """What ``sum()`` of the values added so far returns (as a float)."""
        compensation = self._compensation
        if compensation and math.isfinite(compensation):
            return self._sum + compensation
        return self._sum


SHARED_USAGES = 4_096
"""Distinct token usages the per-case mapping shares (past that, each result's own)."""


class _PerCaseTokens:
    """``per_case_token_usage`` built a result at a time: keyed by ``eval_id``; when an id
    comes again (a combined report of eval sets sharing case ids), every entry of that id
    is keyed ``eval_set_id/eval_id`` and numbered when still taken, as the whole list keys
    them. Without such an id nothing but the mapping itself is kept."""

    def __init__(self) -> None:
        self.shared: dict[TokenUsage, TokenUsage] = {}
        """One of each token usage seen (up to :data:`SHARED_USAGES`): equal usages are
        one object in the mapping (a million results of no tokens, one object)."""
        self.first: dict[str, TokenUsage] = {}
        """Each id's first result's tokens, in order."""
        self.set_runs: list[list[Any]] = []
        """``[eval_set_id, count]`` runs of the entries of :attr:`first`, in order."""
        self.again: list[tuple[int, str, str, TokenUsage]] = []
        """``(index among all results, eval_id, eval_set_id, tokens)`` of a repeated id."""
        self.count = 0

    def add(self, eval_id: str, set_id: str, usage: TokenUsage) -> None:
        shared = self.shared.get(usage)
        if shared is not None:
            usage = shared
        elif len(self.shared) < SHARED_USAGES:
            self.shared[usage] = usage
        if eval_id in self.first:
            self.again.append((self.count, eval_id, set_id, usage))
        else:
            self.first[eval_id] = usage
            if self.set_runs and self.set_runs[-1][0] == set_id:
                self.set_runs[-1][1] += 1
            else:
                self.set_runs.append([set_id, 1])
        self.count += 1

    def mapping(self) -> dict[str, TokenUsage]:
        if not self.again:
            return self.first
        entries = list(self._entries())
        seen: dict[str, int] = {}
        for eval_id, _, _ in entries:
            seen[eval_id] = seen.get(eval_id, 0) + 1
        per_case: dict[str, TokenUsage] = {}
        for eval_id, set_id, usage in entries:
            key = eval_id
            if seen[key] > 1:
                key = f"{set_id}/{eval_id}" if set_id else key
                base, n = key, 2
                while key in per_case:
                    key, n = f"{base}#{n}", n + 1
            per_case[key] = usage
        return per_case

    def _entries(self) -> Any:
        """Every result's ``(eval_id, eval_set_id, tokens)``, in the order they were added."""
        firsts = iter(self.first.items())
        set_ids = (set_id for set_id, count in self.set_runs for _ in range(count))
        again = iter(self.again)
        upcoming = next(again, None)
        for index in range(self.count):
            if upcoming is not None and upcoming[0] == index:
                yield upcoming[1], upcoming[2], upcoming[3]
                upcoming = next(again, None)
            else:
                eval_id, usage = next(firsts)
                yield eval_id, next(set_ids), usage


class SummaryTotals:
    """Running totals of a run's results; :meth:`fields` are an ``EvalSummary``'s fields.

    ``totals.add(result)`` for each result in report order, then
    ``EvalSummary(**totals.fields())``. ``per_case=False`` leaves ``per_case_token_usage``
    empty (the one figure that grows with the results) for a reader that does not use it.
    """

    def __init__(self, *, per_case: bool = True) -> None:
        self.keeps_per_case = per_case
        self.total = self.passed = self.errored = 0
        self.criteria: dict[str, dict[str, Any]] = {}
        self.scores: dict[str, float] = {}
        self.duration = FloatSum()
        self.cost = FloatSum()
        self.costed = 0
        self.tokens = [0, 0, 0, 0]
        self.per_case = _PerCaseTokens()
        self.repeats = RepeatTotals()

    def add(self, result: CaseFigures) -> None:
        """Count ``result`` (its own figures are read, the result is not kept)."""
        self.total += 1
        self.errored += result.is_error
        self.passed += result.passed and not result.is_error
        for cr in result.criterion_results:
            entry = self.criteria.setdefault(cr.criterion, {"total": 0, "passed": 0, "failed": 0})
            entry["total"] += 1
            entry["passed" if cr.passed else "failed"] += 1
            self.scores[cr.criterion] = self.scores.get(cr.criterion, 0.0) + cr.score
            if cr.cost_usd is not None:
                entry["cost_usd"] = entry.get("cost_usd", 0.0) + cr.cost_usd
        usage = result.token_usage
        if self.keeps_per_case:
            self.per_case.add(result.eval_id, result.eval_set_id, usage)
        tokens = self.tokens
        tokens[0] += usage.input_tokens
        tokens[1] += usage.output_tokens
        tokens[2] += usage.cache_read_tokens
        tokens[3] += usage.cache_creation_tokens
        self.duration.add(result.duration_seconds)
        if result.cost_usd is not None:
            self.cost.add(result.cost_usd)
            self.costed += 1
        self.repeats.add(result.repeat_stats, result.passed)

    def fields(self) -> dict[str, Any]:
        """The summary's fields (none for no result: the summary's defaults)."""
        total = self.total
        if not total:
            return {}
        stats = {name: dict(entry) for name, entry in self.criteria.items()}
        for name, entry in stats.items():
            entry["avg_score"] = self.scores[name] / entry["total"]
            entry["pass_rate"] = entry["passed"] / entry["total"]
        tokens = TokenUsage(
            input_tokens=self.tokens[0],
            output_tokens=self.tokens[1],
            cache_read_tokens=self.tokens[2],
            cache_creation_tokens=self.tokens[3],
        )
        duration = self.duration.value
        return {
            "total_cases": total,
            "passed_cases": self.passed,
            "failed_cases": total - self.passed - self.errored,
            "error_cases": self.errored,
            "pass_rate": self.passed / total,
            "avg_duration_seconds": duration / total,
            "total_duration_seconds": duration,
            "criterion_stats": stats,
            "total_token_usage": tokens,
            "per_case_token_usage": self.per_case.mapping(),
            "avg_tokens_per_case": tokens.total_tokens / total,
            "total_cost_usd": self.cost.value if self.costed else None,
            "repeat_stats": self.repeats.stats(),
        }


__all__ = ["FloatSum", "SummaryTotals"]
