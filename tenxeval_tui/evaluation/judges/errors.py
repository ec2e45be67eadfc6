""":class:`JudgeError`, the error of a judge call that failed for good, alone: a run that
calls no judge tells it from its agent's errors without importing the judges' client
(:mod:`.models`, :mod:`.cache`, :mod:`.http`) before its first case (issue #38)."""

from __future__ import annotations

from tenxeval_tui.evaluation.redact import redact_urls


class JudgeError(RuntimeError):
    """A judge call failed for good: HTTP error after retries, timeout, unreachable endpoint.

    Its message never holds an endpoint's credentials (a server may quote the URL it
    got): they are hidden as :mod:`~tenxeval_tui.evaluation.redact` hides them."""

    def __init__(self, message: str) -> None:
        super().__init__(redact_urls(message))


__all__ = ["JudgeError"]
