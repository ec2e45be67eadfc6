"""Model prices, for the cost of a run (see :mod:`tenxeval_tui.evaluation.cost`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tenxeval_tui.evaluation.token_usage import TokenUsage

PER = 1_000_000
"""Prices are per million tokens."""


class ModelPrice(BaseModel):
    """A model's prices in USD per million tokens: ``input``, ``output``, and
    ``cached_input`` (cache reads; the input price when unset)."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)

    def cost(self, usage: TokenUsage) -> float:
        """What ``usage`` costs at these prices, in USD (``input_tokens`` includes the
        ``cache_read_tokens``, as OpenAI counts them)."""
        cached = min(usage.cache_read_tokens, usage.input_tokens)
        cached_price = self.input if self.cached_input is None else self.cached_input
        return (
            (usage.input_tokens - cached) * self.input
            + cached * cached_price
            + usage.output_tokens * self.output
        ) / PER


PriceTable = dict[str, ModelPrice]
"""Model name -> its prices."""
