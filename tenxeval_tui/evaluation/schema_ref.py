"""The ``$schema`` key a file may carry so that editors validate it as it is typed.

An eval set, scenario or config file may start with ``"$schema": "..."`` naming its
JSON Schema (``tenxeval-tui schema evalset`` writes one). Loading accepts the key and
saving writes it back, first, as it was. Eval sets keep it as one of their unknown
keys (they keep every key); scenario sets and configs, which refuse or drop unknown
keys, hold it in a field of their own, :func:`schema_ref_field`, left out of every
other dump (a report's ``config_used`` never carries it).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

SCHEMA_KEY = "$schema"
"""The key, as JSON Schema and editors (VS Code, JetBrains) spell it."""


def schema_ref_field() -> Any:
    """The model field holding a file's ``$schema`` (``None`` when it has none)."""
    return Field(
        default=None,
        alias=SCHEMA_KEY,
        exclude=True,
        description="The JSON Schema this file follows, for editors; kept as written.",
    )


def with_schema_ref(data: dict[str, Any], schema_ref: str | None) -> dict[str, Any]:
    """``data`` with ``"$schema": schema_ref`` put first, when there is one."""
    return {SCHEMA_KEY: schema_ref, **data} if schema_ref is not None else data


__all__ = ["SCHEMA_KEY", "schema_ref_field", "with_schema_ref"]
