"""Plain agents whose pass rates are known exactly, for the variant tests.

``rate_agent(rate=0.9)`` passes case ``c<i>`` (of :func:`rate_set`'s ``cases``) exactly when
``offset <= i < offset + round(rate * cases)`` (wrapping around), every repeat alike; each
call spends ``tokens`` input tokens, so with a price per token its cost is exact. Two
agents of rate 0.5 with offsets 0 and 20 pass different halves of 40 cases: equal pass
rates, every case separating them. ``log`` (a file) gets one line ``TAG CASE`` as each
call starts, the order the variants' cases start in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation import EvalCase, EvalSet, Trace

GOOD = "right"
BAD = "wrong"
CASES = 40


def passes(index: int, rate: float, offset: int = 0, cases: int = CASES) -> bool:
    """Whether the agent of ``rate`` and ``offset`` passes case ``index``."""
    return (index - offset) % cases < round(rate * cases)


def rate_agent(
    rate: float = 0.5,
    offset: int = 0,
    tokens: int = 1000,
    cases: int = CASES,
    log: str = "",
    tag: str = "",
) -> Any:
    """A plain agent passing ``rate`` of the cases (see the module)."""

    async def agent(message: str, trace: Trace) -> str:
        index = int(message.removeprefix("c"))
        if log:
            with Path(log).open("a", encoding="utf-8") as out:
                out.write(f"{tag or rate} {message}\n")
        reply = GOOD if passes(index, rate, offset, cases) else BAD
        trace.node("model", response=reply, tokens={"input_tokens": tokens})
        return reply

    return agent


def rate_set(cases: int = CASES, eval_set_id: str = "rates") -> EvalSet:
    """``cases`` single-turn cases ``c0``... expecting ``GOOD`` (exact match)."""
    return EvalSet(
        eval_set_id=eval_set_id,
        eval_cases=[
            EvalCase.single_turn(f"c{i}", f"c{i}", expected_response=GOOD) for i in range(cases)
        ],
    )


EXACT = {"exact_match": {"threshold": 1.0}}
PRICE_PER_TOKEN = 0.000001
"""USD per input token of the ``rate-model`` price entry."""
PRICES = {"rate-model": {"input": PRICE_PER_TOKEN * 1_000_000, "output": 0.0}}
