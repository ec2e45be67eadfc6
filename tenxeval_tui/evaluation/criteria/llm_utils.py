"""LLMCallerMixin: ask the judge model for a JSON verdict from a criterion of your own.

For 10xGraph users' custom LLM criteria: a class mixing it in (with a
``config`` attribute, as every criterion has) calls ``await
self._call_llm_score(prompt)`` and gets ``(score, reasoning, token_usage)``.
The judge is the one the built-in judged criteria use (see
:mod:`tenxeval_tui.evaluation.judges.models`: ``judge_model``, ``judge_base_url``,
the API key variable...). Unlike 10xGraph, which scores 0.5 when no provider
answers, a missing judge or a failed call raises :class:`JudgeError`: nothing
is ever scored that no judge scored.
"""

from __future__ import annotations

import math
from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.criteria.llm_base import parse_json_reply
from tenxeval_tui.evaluation.judges.models import JudgeError, JudgeSettings
from tenxeval_tui.evaluation.judges.pool import JudgePool
from tenxeval_tui.evaluation.token_usage import TokenUsage


class LLMCallerMixin:
    """Judge calls for criteria: ``_call_llm_json`` and ``_call_llm_score``."""

    config: CriterionConfig
    _llm_pool: JudgePool | None = None

    def _judge_settings(self) -> JudgeSettings:
        name = str(getattr(self, "name", "") or type(self).__name__)
        problems = JudgeSettings.problems(name, self.config)
        if problems:
            raise JudgeError("; ".join(problems))
        return JudgeSettings.from_config(name, self.config)

    async def _call_llm_json(self, prompt: str) -> tuple[dict[str, Any], TokenUsage]:
        """Ask the judge ``prompt``; its reply parsed as a JSON object, and its tokens."""
        pool = getattr(self, "judge_pool", None)
        if not isinstance(pool, JudgePool):
            if self._llm_pool is None:
                self._llm_pool = JudgePool()
            pool = self._llm_pool
        reply = await pool.ask(self._judge_settings(), prompt, 0)
        try:
            data = parse_json_reply(reply.text)
        except ValueError as exc:
            raise JudgeError(f"the judge's reply is not a JSON object: {exc}") from None
        return data, reply.token_usage

    async def _call_llm_score(self, prompt: str) -> tuple[float, str, TokenUsage]:
        """Ask the judge for ``{"score": 0..1, "reasoning": "..."}``."""
        data, usage = await self._call_llm_json(prompt)
        try:
            score = float(data["score"])
        except (KeyError, TypeError, ValueError):
            raise JudgeError("the judge's reply has no numeric 'score'") from None
        if not math.isfinite(score) or not 0.0 <= score <= 1.0:
            raise JudgeError(f"the judge's score {score!r} is not between 0 and 1")
        return score, str(data.get("reasoning", "")), usage


__all__ = ["LLMCallerMixin"]
