"""One judge answer, shared by the judges and their cache."""

from __future__ import annotations

from dataclasses import dataclass

from tenxeval_tui.evaluation.token_usage import TokenUsage


@dataclass(frozen=True)
class JudgeReply:
    """One judge answer: its text, the tokens it cost now, and whether it came from the cache.

    ``usage_estimated``: the endpoint reported no token usage, so ``token_usage`` is an
    estimate (see :mod:`.usage`)."""

    text: str
    token_usage: TokenUsage
    cached: bool = False
    retries: int = 0
    usage_estimated: bool = False
