"""Errors raised when an eval set or report file cannot be used.

Every error names the file, the place in it and the problem, so that a front end
can show it as it is (no traceback needed to understand what went wrong).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file: where it is and what is wrong."""

    path: str
    message: str
    line: int | None = None
    column: int | None = None
    json_path: str = ""

    def location(self) -> str:
        """``file:line:column`` (or as much of it as is known)."""
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        if self.json_path:
            return f"{self.location()}: {self.json_path}: {self.message}"
        return f"{self.location()}: {self.message}"


class EvalFileError(ValueError):
    """A file that exists but cannot be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        if not problems:
            raise ValueError("EvalFileError needs at least one problem")
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @property
    def first(self) -> Problem:
        """The first problem (the one a one-line message shows)."""
        return self.problems[0]
