"""JSON paths into the fakes' state (``$.refunds[0].order_id``, ``$.refunds.`len```), read
with ``jsonpath-ng`` (its extended grammar: filters, ``len``, arithmetic).

A path that names one place (fields, indexes, ``len``) reads that one value; a path that
may name several (a wildcard, a slice, a filter, ``..``) reads the list of what it
matched, in order, so ``$.refunds[*].order_id`` is compared with a list whatever the
number of refunds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jsonpath_ng import JSONPath
from jsonpath_ng.ext import parse
from jsonpath_ng.ext.iterable import Len
from jsonpath_ng.jsonpath import Child, Fields, Index, Root, This

MISSING = object()
"""What :func:`read_path` gives for a one-place path that names nothing."""


@lru_cache(maxsize=256)
def compile_path(path: str) -> JSONPath:
    """``path`` parsed; ``ValueError`` naming it when it is no JSON path."""
    try:
        return parse(path)
    except Exception as exc:  # the parser raises several kinds (lexer, parser errors)
        raise ValueError(f"end_state path {path!r}: {exc}") from None


def _names_one_place(expr: JSONPath) -> bool:
    if isinstance(expr, Root | This | Len):
        return True
    if isinstance(expr, Child):
        return _names_one_place(expr.left) and _names_one_place(expr.right)
    if isinstance(expr, Fields):
        return len(expr.fields) == 1 and expr.fields[0] != "*"
    if isinstance(expr, Index):
        return len(expr.indices) == 1
    return False


def read_path(data: Any, path: str) -> Any:
    """The value at ``path`` in ``data`` (see the module's doc); :data:`MISSING` when a
    one-place path names nothing."""
    expr = compile_path(path)
    values = [match.value for match in expr.find(data)]
    if _names_one_place(expr):
        return values[0] if values else MISSING
    return values


__all__ = ["MISSING", "compile_path", "read_path"]
