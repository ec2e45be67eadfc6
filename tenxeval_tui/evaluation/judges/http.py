"""The judges' HTTP client: ``judge_timeout`` as a deadline for each whole request.

The ``openai`` client's ``timeout`` is the HTTP library's: it bounds each read, so a
server that sends its headers and then one byte a second is waited for as long as it
keeps trickling. :func:`deadline_client` makes the client the judges use, whose every
request (connecting, sending, and reading the reply to its last byte) ends at its
deadline: past it the request fails as a timeout, which the ``openai`` client retries
like any other (``judge_max_retries``) and then raises as ``APITimeoutError``. A reply
that arrives late is never read, so it is never scored.

``openai`` (and the HTTP library it brings) is imported when a client is made.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any


def _timeout_error(client_class: type) -> Any:
    """The HTTP library's read-timeout exception (``httpx2`` or ``httpx``, whichever the
    ``openai`` client is built on): the one it retries and reports as a timeout."""
    for base in client_class.__mro__:
        library = sys.modules.get(base.__module__.partition(".")[0])
        error = getattr(library, "ReadTimeout", None)
        if isinstance(error, type) and issubclass(error, Exception):
            return error
    raise RuntimeError(f"no ReadTimeout beside {client_class!r}")  # pragma: no cover


def deadline_client(seconds: float) -> Any:
    """An ``openai.DefaultAsyncHttpxClient`` whose requests end after ``seconds`` in all."""
    import openai

    base: type = openai.DefaultAsyncHttpxClient
    read_timeout = _timeout_error(base)

    class DeadlineClient(base):
        """Each request, its whole reply read, within the deadline or a timeout."""

        async def send(self, request: Any, **kwargs: Any) -> Any:
            deadline = asyncio.timeout(seconds)
            try:
                async with deadline:
                    return await super().send(request, **kwargs)
            except TimeoutError:
                if not deadline.expired():
                    raise
                raise read_timeout(
                    f"no whole reply within {seconds:g} s", request=request
                ) from None

    return DeadlineClient(timeout=seconds)


__all__ = ["deadline_client"]
