"""Canonical JSON and its SHA-256: one byte string for equal JSON values.

Keys sorted, no whitespace, UTF-8 with non-ASCII kept as it is, floats as Python's
``repr`` writes them: two values equal as JSON give the same bytes (and hash) whatever
the layout or key order of the file they came from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, cast

# One encoder for every call: json.dumps with options builds a new one each time, which
# cost a quarter of encoding a small case (every case of a run is hashed).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
Chunks = Callable[[Any, int], Sequence[str]]


def _c_encoder() -> Chunks | None:
    """json's C encoder with :data:`_ENCODER`'s options, made once: ``encode`` makes one a
    call (a fifth of hashing a case, issue #38); the same text. Its circular-reference
    marks are its own dict, empty again after each call that returns; ``None`` without
    json's C speedups."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    return cast(
        Chunks,
        make(
            {}, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
        ),
    )


_chunks = _c_encoder()


def canonical_json(value: Any) -> bytes:
    """``value`` as canonical JSON bytes (sorted keys, no whitespace, UTF-8)."""
    global _chunks
    if _chunks is None or isinstance(value, str):
        return _ENCODER.encode(value).encode("utf-8", errors="surrogatepass")
    try:
        text = "".join(_chunks(value, 0))
    except BaseException:
        _chunks = _c_encoder()  # a call that raised may leave its marks behind
        raise
    return text.encode("utf-8", errors="surrogatepass")


def sha256_json(value: Any) -> str:
    """The SHA-256 (hex) of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


__all__ = ["canonical_json", "sha256_json"]
