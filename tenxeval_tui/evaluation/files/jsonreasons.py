"""Why valid-looking JSON still cannot be loaded, and where: the problems the parsers leave vague.

Two parsers read our files: pydantic's (the fast path) and the standard library's (to
name problems). Some text one accepts the other refuses: an integer literal longer than
Python's digit limit (``ValueError`` from ``json.loads``, no position), JSON nested deeper
than pydantic's parser goes, a lone ``\\ud800`` escape. Each becomes a :class:`Problem`
at its line and column.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from tenxeval_tui.evaluation.errors import Problem

# A JSON string token, or a run of digits: the first long digit run outside a string is it.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+', re.DOTALL)
_AT = re.compile(r"\s*at line (\d+) column (\d+)$")


def is_digit_limit_error(exc: ValueError) -> bool:
    """Whether ``exc`` is Python's refusal to convert a too long integer literal."""
    return "integer string conversion" in str(exc)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def big_int_problem(path: str, text: str) -> Problem:
    """The first integer literal of ``text`` with more digits than Python converts."""
    limit = sys.get_int_max_str_digits()
    for match in _TOKENS.finditer(text):
        token = match.group()
        digits = len(token.lstrip("-"))
        if token[0] != '"' and limit and digits > limit:
            line, column = line_col(text, match.start())
            return Problem(
                path=path,
                line=line,
                column=column,
                message=f"a number of {digits} digits: more than the {limit} digits "
                "an integer may have (write it as a string)",
            )
    return Problem(path=path, line=1, column=1, message="a number with too many digits")


NESTING_LIMIT = 200
"""How deep arrays and objects may nest: pydantic's JSON parser refuses more."""
TOO_DEEP = (
    f"nested too deeply: more than {NESTING_LIMIT} levels of arrays and objects inside each other"
)
# A JSON string token, or a bracket: brackets outside strings make the nesting.
_NESTING_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def too_deep_problem(path: str, text: str) -> Problem:
    """Where ``text`` first nests deeper than :data:`NESTING_LIMIT` (the standard
    library's parser gives up a few hundred levels later with no place: a
    ``RecursionError``)."""
    depth = 0
    for match in _NESTING_TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > NESTING_LIMIT:
                line, column = line_col(text, match.start())
                return Problem(path=path, line=line, column=column, message=TOO_DEEP)
        elif token in ("]", "}"):
            depth -= 1
    return Problem(path=path, line=1, column=1, message=TOO_DEEP)


def _reworded(message: str) -> str:
    if "recursion limit" in message:
        return TOO_DEEP
    if "escape" in message or "surrogate" in message:
        return (
            f"invalid JSON: {message} (a lone surrogate: a \\ud800-\\udfff escape "
            "without the other half of its pair is no text)"
        )
    if "out of range" in message:
        return f"invalid JSON: {message} (write such a number as a string)"
    return f"invalid JSON: {message}"


def parser_refusals(path: str, errors: list[Any]) -> list[Problem]:
    """Problems for pydantic's ``json_invalid`` errors (text its JSON parser refused)."""
    problems: list[Problem] = []
    for error in errors:
        if error.get("type") != "json_invalid":
            continue
        raw = str(error.get("ctx", {}).get("error") or error.get("msg", ""))
        raw = raw.removeprefix("Invalid JSON: ")
        found = _AT.search(raw)
        message = raw[: found.start()] if found else raw
        problems.append(
            Problem(
                path=path,
                line=int(found.group(1)) if found else 1,
                column=int(found.group(2)) if found else 1,
                message=_reworded(message),
            )
        )
    return problems


__all__ = [
    "NESTING_LIMIT",
    "TOO_DEEP",
    "big_int_problem",
    "is_digit_limit_error",
    "line_col",
    "parser_refusals",
    "too_deep_problem",
]
