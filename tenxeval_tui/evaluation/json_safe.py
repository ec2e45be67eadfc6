"""What an agent hands over (tool arguments and results) as JSON data every reader here takes.

A recording keeps a tool call's arguments and result as JSON data: the live view, the
worker protocol, the journal and the reports carry them as JSON. :func:`json_safe` makes
them so, as documented: objects JSON has no form for become their ``str`` (``bytes``
included, UTF-8 or not: ``"b'\\xff'"``, never decoded), and values that JSON could carry but
no reader here could read back become a note saying what they were: an integer of more
digits than Python converts from text (``sys.get_int_max_str_digits()``, 4,300 by
default: a line holding it would stop every reader of the run), a structure nested too
deep, or one that contains itself. It is the recording's problem, so it never errors the
case: the agent's call is recorded, with the note in place of the value.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import pydantic_core

MAX_DEPTH = 200
"""How deep a recorded value may nest (a reader parses it recursively)."""
_LN2_LOG10 = math.log10(2)


def _int_note(value: int) -> str | None:
    """The note for an integer no reader could take back from text, or ``None``."""
    limit = sys.get_int_max_str_digits()
    if not limit or value.bit_length() * _LN2_LOG10 < limit - 1:
        return None
    digits = int(value.bit_length() * _LN2_LOG10) + 1
    return f"<an integer of about {digits} digits: more than {limit}, not recorded>"


def json_safe(value: Any) -> Any:
    """``value`` as JSON data (dicts with text keys, lists, text, numbers, booleans, null)
    that every reader here takes back (see the module's doc)."""
    try:
        return _safe(value, 0, set())
    except RecursionError:
        return "<a value nested too deep to record>"


def _safe(value: Any, depth: int, path: set[int]) -> Any:
    if value is None or isinstance(value, str | bool | float):
        return value
    if isinstance(value, int):
        return _int_note(value) or value
    if isinstance(value, bytes | bytearray):
        return str(value)
    if depth >= MAX_DEPTH:
        return f"<a value nested more than {MAX_DEPTH} deep: not recorded>"
    if isinstance(value, dict | list | tuple | set | frozenset):
        if id(value) in path:
            return "<a value that contains itself>"
        path.add(id(value))
        try:
            if isinstance(value, dict):
                return {_key(k): _safe(v, depth + 1, path) for k, v in value.items()}
            return [_safe(item, depth + 1, path) for item in value]
        finally:
            path.discard(id(value))
    try:
        plain = pydantic_core.to_jsonable_python(value, fallback=str)
    except (ValueError, TypeError, pydantic_core.PydanticSerializationError):
        return _text_of(value)
    if plain is value or isinstance(plain, str):
        return plain
    return _safe(plain, depth + 1, path)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, int) and not isinstance(key, bool):
        return _int_note(key) or str(key)
    safe = _safe(key, MAX_DEPTH - 1, set())
    return safe if isinstance(safe, str) else pydantic_core.to_json(safe).decode()


def _text_of(value: Any) -> str:
    try:
        return str(value)
    except Exception as exc:  # a __str__ that raises: say what it was
        return f"<{type(value).__name__} whose str() raised {type(exc).__name__}>"


__all__ = ["MAX_DEPTH", "json_safe"]
