"""Secrets kept out of cassettes: the value of a key named like a secret (``password``,
``api_key``, ``Authorization``, ``access_token``...) is masked whole, and text matching a
configured pattern (``metadata.tools.redact``) is masked where it matches.

Replay matches a call's arguments masked the same way, so a call whose token changed
since it was recorded still finds its recording.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

MASK = "[REDACTED]"
_SECRET_WORDS = (
    "password|passwd|pwd|passphrase|secret|token|api_?key|apikey|auth|authorization|"
    "credentials?|private_?key|cookie|session_?id|access_?key|signature"
)
# A key is split into words (snake, kebab and camel case): one of them names a secret.
_SECRET_KEY = re.compile(rf"(?:^|_)(?:{_SECRET_WORDS})(?:_|$)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_key(key: str) -> bool:
    """Whether a key's name says its value is a secret (``apiKey``, ``X-Auth-Token``)."""
    words = _CAMEL.sub("_", key).lower().replace("-", "_").replace(" ", "_")
    return bool(_SECRET_KEY.search(words))


class Redactor:
    """Masks secrets in JSON data (see the module's doc); ``patterns`` are regular
    expressions."""

    def __init__(self, patterns: Sequence[str] = ()) -> None:
        self.patterns = [re.compile(p) for p in dict.fromkeys(patterns)]

    def __call__(self, value: Any) -> Any:
        """``value`` (JSON data) with its secrets masked; unchanged parts are not copied."""
        if isinstance(value, str):
            for pattern in self.patterns:
                value = pattern.sub(MASK, value)
            return value
        if isinstance(value, dict):
            return {
                k: MASK if isinstance(k, str) and is_secret_key(k) and v else self(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self(v) for v in value]
        return value


__all__ = ["MASK", "Redactor", "is_secret_key"]
