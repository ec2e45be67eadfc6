"""No verdict: a judged criterion that could not be scored errors its case, it does not fail it.

The one contract of a case's outcome: a case **fails** when its criteria judged what the
agent did and it fell short; it **errors** when it could not be judged. The agent raising or
running out of time, the simulated user's model failing, and a judge that gives no verdict
are all errors. A judge gives no verdict when its endpoint fails after its retries (an HTTP
error, a timeout, an unreachable host, a body that is no completion) or its reply does not
read as the verdict the prompt asked for: the criterion's result says so (``error``, with
``details["no_verdict"]``) and keeps the tokens spent, and the case's ``error`` names the
criterion and the problem, so ``--error-exit-code`` and ``--retry-errors`` apply to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tenxeval_tui.evaluation.eval_result import CriterionResult

NO_VERDICT_KEY = "no_verdict"
"""``CriterionResult.details`` key: ``True`` when the judge gave no verdict (see above)."""
NO_VERDICT_ERROR = "JudgeError"
"""The ``error_type`` of a case whose judge gave no verdict."""


def without_verdict(result: CriterionResult) -> CriterionResult:
    """``result`` (a failure with its ``error``) marked as one no judge scored."""
    result.details[NO_VERDICT_KEY] = True
    return result


def has_no_verdict(result: CriterionResult) -> bool:
    """Whether ``result`` is a criterion that errored for want of a judge's verdict."""
    return result.error is not None and bool(result.details.get(NO_VERDICT_KEY))


def no_verdict_error(results: Iterable[CriterionResult]) -> tuple[str, dict[str, Any]] | None:
    """The case's ``(error, error_info)`` when one of its criteria got no verdict, else
    ``None``: the first such criterion is named, with its error."""
    for result in results:
        if has_no_verdict(result):
            info = {"error_type": NO_VERDICT_ERROR, "criterion": result.criterion}
            return f"{result.criterion}: {result.error}", info
    return None


__all__ = [
    "NO_VERDICT_ERROR",
    "NO_VERDICT_KEY",
    "has_no_verdict",
    "no_verdict_error",
    "without_verdict",
]
