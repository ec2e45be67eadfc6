"""A judge reply's token usage: checked, and estimated when the endpoint reports none.

What a judge call cost is read from the ``usage`` the endpoint sends, which some
gateways and local servers leave out. The rule:

- **no usage** (no ``usage`` object, or neither count in it): the call's tokens are
  estimated, four characters a token (at least one), the prompt's as input and the reply's
  as output (:func:`estimated_usage`). The reply says so (``JudgeReply.usage_estimated``),
  each judged criterion counts its estimated calls in ``details["usage_estimated"]``, and
  ``tenxeval-tui run`` warns on stderr (:func:`usage_warning`). Estimated tokens are priced
  and count against ``max_cost`` like reported ones, so a budget still bounds the run;
- **negative usage** (a count below zero): the reply is refused, the judge gave no verdict
  (:func:`usage_problem` says why; the case errors, see :mod:`~tenxeval_tui.evaluation.results.verdicts`);
- otherwise the counts are taken as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.eval_result import EvalReport

USAGE_ESTIMATED_KEY = "usage_estimated"
"""``CriterionResult.details`` key: how many of the criterion's judge calls reported no
token usage (their tokens are estimates)."""
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """A text's tokens, roughly: four characters a token, at least one.

    What a call reserves against ``judge_tpm`` before it is sent, and what a call whose
    endpoint reports no usage is counted at."""
    return max(1, len(text) // CHARS_PER_TOKEN)


def estimated_usage(prompt: str, reply: str) -> TokenUsage:
    """The tokens of a call that reported none: the prompt's as input, the reply's as output."""
    return TokenUsage(input_tokens=estimate_tokens(prompt), output_tokens=estimate_tokens(reply))


def usage_problem(usage: TokenUsage | None) -> str | None:
    """Why ``usage`` cannot be taken (a negative count), or ``None``."""
    if usage is None:
        return None
    counts = {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "cached input": usage.cache_read_tokens,
    }
    negative = [f"{name} {count}" for name, count in counts.items() if count < 0]
    return f"negative token usage ({', '.join(negative)})" if negative else None


def estimated_calls(reports: Iterable[EvalReport]) -> int:
    """How many judge calls of ``reports`` reported no usage (every case, every repeat)."""
    total = 0
    for report in reports:
        for result in report.results:
            for run in result.runs:
                for criterion in run.criterion_results:
                    count = criterion.details.get(USAGE_ESTIMATED_KEY, 0)
                    total += count if isinstance(count, int) else 0
    return total


def usage_warning(reports: Iterable[EvalReport]) -> str | None:
    """The warning a run prints when judge calls reported no usage, or ``None``."""
    count = estimated_calls(reports)
    if not count:
        return None
    return (
        f"warning: {count} judge call(s) reported no token usage: their tokens, and their "
        f"cost, are estimated at {CHARS_PER_TOKEN} characters a token"
    )


__all__ = [
    "CHARS_PER_TOKEN",
    "USAGE_ESTIMATED_KEY",
    "estimate_tokens",
    "estimated_calls",
    "estimated_usage",
    "usage_problem",
    "usage_warning",
]
