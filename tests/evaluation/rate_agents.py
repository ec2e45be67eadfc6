"""Plain agents whose pass rates are known exactly, for the variant tests.

``rate_agent(rate=0.9)`` passes case ``c<i>`` (of :func:`rate_set`'s ``cases``) exactly when
``offset <= i < offset + round(rate * cases)`` (wrapping around), every repeat alike; each
call spends ``tokens`` input tokens, so with a price per token its cost is exact. Two
agents of rate 0.5 with offsets 0 and 20 pass different halves of 40 cases: equal pass
rates, every case separating them. ``log`` (a file) gets one line ``TAG CASE`` as each
call starts, the order the variants' cases start in. With ``lockstep`` (the number of
variants logging there), case ``k`` waits until every variant has started case ``k - 1``:
run one after another, the first variant's second case would wait in vain (and error);
``hold`` (a file) makes the cases from ``hold_at`` on wait until that file exists.
"""

from __future__ import annotations

import asyncio
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
    lockstep: int = 0,
    hold: str = "",
    hold_at: int = 0,
) -> Any:
    """A plain agent passing ``rate`` of the cases (see the module)."""

    async def agent(message: str, trace: Trace) -> str:
        index = int(message.removeprefix("c"))
        if hold and index >= hold_at:
            await _until(lambda: Path(hold).exists(), 600)
        if lockstep and index > 0:
            before = f"c{index - 1}"
            await _until(lambda: _started(log, before) >= lockstep, 60)
        if log:
            with Path(log).open("a", encoding="utf-8") as out:
                out.write(f"{tag or rate} {message}\n")
        reply = GOOD if passes(index, rate, offset, cases) else BAD
        trace.node("model", response=reply, tokens={"input_tokens": tokens})
        return reply

    return agent


def _started(log: str, case: str) -> int:
    """How many variants have started ``case`` (by the log)."""
    lines = Path(log).read_text(encoding="utf-8").splitlines() if Path(log).exists() else []
    return sum(1 for line in lines if line.split()[1] == case)


async def _until(condition: Any, timeout: float) -> None:
    """Wait for ``condition`` (polling); ``TimeoutError`` after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise TimeoutError("the other variants never came")
        await asyncio.sleep(0.02)


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
