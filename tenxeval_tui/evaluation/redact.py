"""Credentials in endpoint URLs, hidden wherever a URL is shown or stored.

A judge endpoint may carry its credentials in its URL: ``http://user:secret@host/v1``
(userinfo) or ``https://host/v1?api-key=...`` (a key-like query parameter, as Azure and
some gateways take them). :func:`redact_url` hides them in one URL, :func:`redact_urls`
in every URL of a text (an error message, a log line), and :func:`redact_values` in every
string of a JSON-like value (a report's ``config_used``). What is hidden becomes ``***``:
the userinfo as a whole (a user name can be a token too), and the value of each query
parameter whose name says key, token, secret, password, signature, credential or auth.
The rest of the URL stays as it was, so the host and path still say which endpoint it is.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

HIDDEN = "***"
"""What a hidden credential is shown as."""

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>`]+")
_BARE_PARAM = re.compile(r"([?&])([A-Za-z0-9_.\-]+)=([^&\s\"'<>`#]*)")
_SECRET_PARAM = re.compile(
    r"key|token|secret|passw|pwd|sig|credential|auth|session|access", re.IGNORECASE
)


def redact_url(url: str) -> str:
    """``url`` with its userinfo and the values of its key-like query parameters hidden
    (anything that does not parse as a URL is returned as it is)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        return url
    if "@" in netloc:
        netloc = f"{HIDDEN}@{netloc.rpartition('@')[2]}"
    query = _BARE_PARAM.sub(_hidden_param, f"?{parts.query}")[1:] if parts.query else ""
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_urls(text: str) -> str:
    """``text`` with the credentials of every URL in it hidden (see :func:`redact_url`), and
    of every query string without its URL (a server's error quoting the path it got)."""
    if "://" in text:
        text = _URL.sub(lambda found: redact_url(found.group(0)), text)
    if "=" in text:
        text = _BARE_PARAM.sub(_hidden_param, text)
    return text


def _hidden_param(found: re.Match[str]) -> str:
    if not _SECRET_PARAM.search(found.group(2)) or found.group(3) == HIDDEN:
        return found.group(0)
    return f"{found.group(1)}{found.group(2)}={HIDDEN}"


def redact_values(value: Any) -> Any:
    """``value`` (dicts, lists, strings: JSON-like) with every URL's credentials hidden;
    a value with nothing to hide is returned as it is."""
    if isinstance(value, str):
        return redact_urls(value)
    if isinstance(value, dict):
        changed = {key: redact_values(item) for key, item in value.items()}
        same = all(changed[key] is item for key, item in value.items())
        return value if same else changed
    if isinstance(value, list):
        items = [redact_values(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


class RedactingFormatter(logging.Formatter):
    """A log formatter whose lines have every URL's credentials hidden (an HTTP library's
    debug records name the URL of each request)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact_urls(super().format(record))


__all__ = ["HIDDEN", "RedactingFormatter", "redact_url", "redact_urls", "redact_values"]
