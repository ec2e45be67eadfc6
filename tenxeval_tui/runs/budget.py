"""``--max-cost`` over a whole run session: one budget for every pass (no UI import).

A pass runs in its own worker child, whose evaluator keeps a budget of the config's
``max_cost`` (:class:`~tenxeval_tui.evaluation.cost.CostBudget`). A session of several
passes (``--retry-errors``) or one resumed from a journal (``--resume``) spends more than
one pass: :class:`RunBudget` counts what every attempt cost (the journal's cases too) and
gives each pass only what is left, by the evaluator's own rule: a case starts only when
what was spent plus the average case's cost, for it and each case running, stays within
``max_cost``. So a pass starts only when one more case fits, and runs at most as many cases
at once as fit (until its first case ends, its evaluator knows no average of its own).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.eval_result import EvalReport


@dataclass
class RunBudget:
    """What a session's attempts cost so far, against its ``max_cost`` (USD)."""

    max_cost: float
    spent: float = 0.0
    attempts: int = 0

    @classmethod
    def of(cls, config: EvalConfig) -> RunBudget | None:
        """The budget of a run with ``config`` (``None`` without ``max_cost``)."""
        return cls(config.max_cost) if config.max_cost is not None else None

    def add(self, reports: Iterable[EvalReport]) -> None:
        """Count each case of ``reports`` as one attempt and its cost as spent."""
        for report in reports:
            for result in report.results:
                self.attempts += 1
                self.spent += result.cost_usd or 0.0

    @property
    def average(self) -> float | None:
        """The average cost of an attempt (``None`` before any)."""
        return self.spent / self.attempts if self.attempts else None

    def fits(self, cases: int = 1) -> int:
        """How many of ``cases`` more may start at once without the forecast passing
        ``max_cost`` (all of them while no attempt has a cost yet)."""
        left = self.max_cost - self.spent
        if left <= 0:
            return 0
        average = self.average
        if not average:
            return cases
        return max(0, min(cases, math.floor(left / average + 1e-9)))

    def pass_config(self, config: EvalConfig, cases: int) -> EvalConfig:
        """``config`` for a pass of ``cases`` cases: ``max_cost`` what is left, and no more
        cases at once than fit."""
        fit = self.fits(cases)
        update: dict[str, object] = {"max_cost": max(self.max_cost - self.spent, 1e-9)}
        if fit < cases:
            update["max_concurrency"] = max(1, min(config.max_concurrency, fit))
        return config.model_copy(update=update)


__all__ = ["RunBudget"]
