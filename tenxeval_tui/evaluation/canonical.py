"""Canonical JSON and its SHA-256: one byte string for equal JSON values.

Keys sorted, no whitespace, UTF-8 with non-ASCII kept as it is, floats as Python's
``repr`` writes them: two values equal as JSON give the same bytes (and hash) whatever
the layout or key order of the file they came from.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

# One encoder for every call: json.dumps with options builds a new one each time, which
# cost a quarter of encoding a small case (every case of a run is hashed).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> bytes:
    """``value`` as canonical JSON bytes (sorted keys, no whitespace, UTF-8)."""
    return _ENCODER.encode(value).encode("utf-8", errors="surrogatepass")


def sha256_json(value: Any) -> str:
    """The SHA-256 (hex) of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


__all__ = ["canonical_json", "sha256_json"]
