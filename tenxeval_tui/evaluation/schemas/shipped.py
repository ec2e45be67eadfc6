"""The schema files the package ships, read without importing any model (fast)."""

from __future__ import annotations

from pathlib import Path

SCHEMA_FILES: dict[str, str] = {
    "evalset": "*.evalset.json",
    "scenarios": "*.scenarios.json",
    "labels": "*.labels.jsonl",
    "config": "*.config.json",
}
"""Each kind of file with a schema (the name ``tenxeval-tui schema NAME`` takes) and the
files of that kind, as an editor's file pattern."""


def shipped_schema_path(kind: str) -> Path:
    """Where the package holds the schema of ``kind`` (``<kind>.schema.json``)."""
    if kind not in SCHEMA_FILES:
        raise KeyError(kind)
    return Path(__file__).with_name(f"{kind}.schema.json")


def shipped_schema_text(kind: str) -> str:
    """The schema of ``kind`` as the package ships it."""
    return shipped_schema_path(kind).read_text(encoding="utf-8")


__all__ = ["SCHEMA_FILES", "shipped_schema_path", "shipped_schema_text"]
