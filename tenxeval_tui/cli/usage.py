"""The usage error of the CLI's commands (kept apart so that every CLI module can raise it)."""

from __future__ import annotations


class UsageError(Exception):
    """A usage or configuration problem: printed as it is, exit code 2."""


__all__ = ["UsageError"]
