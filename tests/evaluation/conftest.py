"""Shared helpers for the evaluation tests."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation import EvalConfig


def config_with(criteria: dict[str, dict[str, Any]] | None = None, **fields: Any) -> EvalConfig:
    """A config running only ``criteria`` (by name), never writing reports."""
    return EvalConfig.model_validate(
        {"criteria": criteria or {}, "reporter": {"enabled": False}, **fields}
    )
