"""A plain agent that passes with a fixed probability, drawn from a seeded generator.

Each call draws from ``random.Random(f"{seed}:{message}:{n}")`` where ``n`` counts
the calls with that message, so the outcomes of a case's runs are the same
whatever order concurrent runs are scheduled in: the n-th run of a message
passes exactly when :meth:`CoinAgent.expected` says so.
"""

from __future__ import annotations

import asyncio
import random

from tenxeval_tui.evaluation import EvalCase, EvalSet, Trace

GOOD = "The answer is right."
BAD = "Something else entirely."


class CoinAgent:
    """Replies ``GOOD`` with probability ``chance[message]`` (else ``default``), else ``BAD``."""

    def __init__(
        self,
        default: float,
        chance: dict[str, float] | None = None,
        *,
        seed: int = 7,
        delay: float = 0.0,
    ) -> None:
        self.default = default
        self.chance = chance or {}
        self.seed = seed
        self.delay = delay
        self.calls: dict[str, int] = {}
        self.running = 0
        self.most_running = 0

    def draw(self, message: str, n: int) -> bool:
        """Whether the ``n``-th run (0-based) of ``message`` passes."""
        chance = self.chance.get(message, self.default)
        return random.Random(f"{self.seed}:{message}:{n}").random() < chance

    def expected(self, message: str, runs: int) -> list[bool]:
        """The outcomes of the first ``runs`` runs of ``message``."""
        return [self.draw(message, n) for n in range(runs)]

    async def __call__(self, message: str, trace: Trace) -> str:
        n = self.calls.get(message, 0)
        self.calls[message] = n + 1
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            reply = GOOD if self.draw(message, n) else BAD
            trace.node("MAIN", response=reply, tokens={"input_tokens": 5, "output_tokens": 3})
            return reply
        finally:
            self.running -= 1


def coin_set(count: int, *, eval_set_id: str = "coins", **metadata: object) -> EvalSet:
    """``count`` single-turn cases ``q0``... expecting ``GOOD`` (exact match)."""
    cases = [
        EvalCase.single_turn(f"q{i}", f"question {i}", expected_response=GOOD) for i in range(count)
    ]
    return EvalSet(eval_set_id=eval_set_id, eval_cases=cases, metadata=dict(metadata))


EXACT = {"exact_match": {"threshold": 1.0}}
