"""What a run cost, from token usage and a price table; and a budget that stops a run.

Prices are optional (``EvalConfig.prices``): without them nothing here adds
anything to a result, so reports stay as they were. With them:

- a judged criterion's cost is its judge tokens at the price of its
  ``details["judge_model"]`` (0.0 when every sample came from the cache);
- a case's cost is its criteria's costs plus the agent's own tokens at the price of
  ``EvalConfig.agent_model`` (the agent's events do not say which model it called);
- a run's cost (``EvalSummary.total_cost_usd``) is the sum of its cases'.

A model missing from the table makes no cost (rather than a wrong one). Token
counts follow OpenAI's convention: ``input_tokens`` includes ``cache_read_tokens``,
which are billed at ``cached_input`` (default: the input price).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tenxeval_tui.evaluation.config.prices import ModelPrice, PriceTable
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import (
    NOT_RUN_KEY,
    STOPPED_KEY,
    CriterionResult,
    EvalCaseResult,
)

logger = logging.getLogger("tenxeval_tui.evaluation.cost")


def criterion_cost(result: CriterionResult, prices: PriceTable) -> float | None:
    """The cost of a criterion's judge calls, or ``None`` (no judge, or an unpriced one)."""
    model = result.details.get("judge_model")
    if not isinstance(model, str):
        return None
    price = prices.get(model)
    if price is None:
        _unpriced(model)
        return None
    return price.cost(result.token_usage)


def price_case(
    result: EvalCaseResult, prices: PriceTable, agent_model: str | None = None
) -> EvalCaseResult:
    """Set ``cost_usd`` on ``result`` and on each of its criterion results (in place);
    returns ``result``. Without prices nothing changes."""
    if not prices:
        return result
    parts: list[float] = []
    for cr in result.criterion_results:
        cr.cost_usd = criterion_cost(cr, prices)
        if cr.cost_usd is not None:
            parts.append(cr.cost_usd)
    if agent_model is not None:
        price = prices.get(agent_model)
        if price is None:
            _unpriced(agent_model)
        else:
            parts.append(price.cost(result.agent_token_usage))
    result.cost_usd = sum(parts) if parts else None
    return result


def format_cost(usd: float) -> str:
    """``$0.0123``: four decimals below a dollar (judge calls cost fractions of a cent)."""
    return f"${usd:.4f}" if usd < 1 else f"${usd:,.2f}"


_warned: set[str] = set()


def _unpriced(model: str) -> None:
    if model not in _warned:
        _warned.add(model)
        logger.warning("no price for model %r in the price table: its tokens are not costed", model)


@dataclass
class CostBudget:
    """Stops a run before it would spend more than ``max_cost`` USD.

    The evaluator asks :meth:`allows_another` before each case starts. Nothing is known
    of a case's cost before it runs, so the forecast is the average cost of the cases
    finished so far, for the new case and each case still running: a case starts only
    when ``spent + average * (running + 1) <= max_cost``. Until a first case has
    finished, cases start (up to the run's concurrency). Cases already running always
    finish, and their cost counts, so the bill can pass ``max_cost`` by what those cases
    cost above the average; no case starts once it has.
    """

    max_cost: float
    spent: float = 0.0
    finished: int = 0
    running: int = 0
    stopped: bool = False

    def allows_another(self) -> bool:
        """Whether one more case may start (``False`` from then on, once refused)."""
        if self.stopped:
            return False
        forecast = self.spent
        if self.finished:
            forecast += (self.spent / self.finished) * (self.running + 1)
        if self.spent >= self.max_cost or forecast > self.max_cost:
            self.stopped = True
            return False
        return True

    def started(self) -> None:
        """A case started."""
        self.running += 1

    def ended(self, result: EvalCaseResult) -> None:
        """A case ended: its cost (nothing when it has none) is spent."""
        self.running = max(0, self.running - 1)
        self.finished += 1
        self.spent += result.cost_usd or 0.0

    def stop_note(
        self, cases: Sequence[EvalCase], results: Sequence[EvalCaseResult | None]
    ) -> dict[str, Any] | None:
        """For the report's metadata, when the budget kept cases from running:
        ``{"stopped_by": "max_cost", "not_run": [eval ids]}`` (else ``None``)."""
        if not self.stopped:
            return None
        not_run = [c.eval_id for c, r in zip(cases, results, strict=True) if r is None]
        if not not_run:
            return None
        logger.warning(
            "max_cost %.4f USD reached (%.4f spent): %d case(s) not run",
            self.max_cost,
            self.spent,
            len(not_run),
        )
        return {STOPPED_KEY: "max_cost", NOT_RUN_KEY: not_run}


__all__ = [
    "CostBudget",
    "ModelPrice",
    "PriceTable",
    "criterion_cost",
    "format_cost",
    "price_case",
]
