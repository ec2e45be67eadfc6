"""Whether an eval set's argument matchers and trajectory rules can be read, and where not.

The eval-set models refuse a case whose matchers or rules cannot be read
(:func:`first_expectation_problem`, naming the first); a file's loading then places every
one at its line and column (:func:`expectation_problems`, on the parsed JSON, Google ADK's
``intermediate_data.tool_uses`` included), so ``validate``, a run and the editor name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.arg_matchers import (
    format_arg_path,
    literal_dollar_keys,
    matcher_problems,
)
from tenxeval_tui.evaluation.dataset.trajectory_rules import RULES_KEY, rules_problems
from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.files.fileio import parse_json, placed_problems, read_text

Found = list[tuple[list[str | int], str]]
"""(JSON path, message) of each problem."""


def first_expectation_problem(
    args_by_turn: Iterable[Iterable[dict[str, Any]]], metadata: dict[str, Any]
) -> tuple[str, str] | None:
    """(place in the case, message) of the first matcher or rule of a case that cannot be
    read, else ``None``: ``args_by_turn`` the args of each turn's expected calls,
    ``metadata`` the case's."""
    for t, turn in enumerate(args_by_turn):
        for c, args in enumerate(turn):
            found = matcher_problems(args) if args else []
            if found:
                path, message = found[0]
                where = ["conversation", t, "expected_tool_trajectory", c, "args", *path]
                return format_arg_path(where), message
    if RULES_KEY in metadata:
        rules = rules_problems(metadata[RULES_KEY])
        if rules:
            path, message = rules[0]
            return format_arg_path(["metadata", RULES_KEY, *path]), message
    return None


def _expected_args(turn: dict[str, Any]) -> list[tuple[list[str | int], Any]]:
    """(path below the turn, args) of each expected call of a turn as written in a file:
    ours, or Google ADK's ``intermediate_data.tool_uses``."""
    calls = turn.get("expected_tool_trajectory")
    prefix: list[str | int] = ["expected_tool_trajectory"]
    if calls is None and isinstance(turn.get("intermediate_data"), dict):
        calls, prefix = (
            turn["intermediate_data"].get("tool_uses"),
            ["intermediate_data", "tool_uses"],
        )
    if not isinstance(calls, list):
        return []
    return [
        ([*prefix, c, "args"], call["args"])
        for c, call in enumerate(calls)
        if isinstance(call, dict) and isinstance(call.get("args"), dict) and call["args"]
    ]


def _each_expected_args(data: Any) -> Iterator[tuple[list[str | int], Any]]:
    """(JSON path, args) of every expected call with args in a parsed eval set file."""
    cases = data.get("eval_cases") if isinstance(data, dict) else None
    for i, case in enumerate(cases if isinstance(cases, list) else []):
        turns = case.get("conversation") if isinstance(case, dict) else None
        for t, turn in enumerate(turns if isinstance(turns, list) else []):
            if isinstance(turn, dict):
                for where, args in _expected_args(turn):
                    yield ["eval_cases", i, "conversation", t, *where], args


def expectation_problems(data: Any) -> Found:
    """Every matcher and rule of a parsed eval set file that cannot be read, at its place."""
    found: Found = [
        ([*place, *path], message)
        for place, args in _each_expected_args(data)
        for path, message in matcher_problems(args)
    ]
    cases = data.get("eval_cases") if isinstance(data, dict) else None
    for i, case in enumerate(cases if isinstance(cases, list) else []):
        metadata = case.get("metadata") if isinstance(case, dict) else None
        if isinstance(metadata, dict) and RULES_KEY in metadata:
            for path, message in rules_problems(metadata[RULES_KEY]):
                found.append((["eval_cases", i, "metadata", RULES_KEY, *path], message))
    return found


def expectation_warnings(path: Path) -> list[Problem]:
    """``warning:`` problems of the eval set in ``path`` (a file that loads): each object in
    expected args with a ``$`` key that is no matcher (a misspelt one, or a value such as
    ``{"$ref": ...}``, compared as written)."""
    text = read_text(path)
    data = parse_json(path, text)
    found: Found = [
        ([*place, *where], f"warning: {message}")
        for place, args in _each_expected_args(data)
        for where, message in literal_dollar_keys(args)
    ]
    return placed_problems(path, text, found) if found else []


__all__ = ["Found", "expectation_problems", "expectation_warnings", "first_expectation_problem"]
