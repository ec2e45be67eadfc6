"""The keys nothing reads in an eval set file, found a case at a time.

:func:`~tenxeval_tui.evaluation.unknown_keys.unknown_keys_in_file` parses a file whole:
for a million cases, gigabytes in the command that only warns. Here the file is read with
:func:`~tenxeval_tui.runs.json_stream.placed_eval_set_items` (a top-level field or a case
at a time), each walked along its model as the whole file's walk does, and an unknown key
is located in the text of its own case: the same problems (file, line, column, place,
key), in the same order, never the whole file in memory. A file the reader does not read
exactly (see :mod:`~tenxeval_tui.runs.json_stream`) is checked whole, as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.unknown_keys import (
    FILE_KEYS,
    placed_problems,
    unknown_keys_at,
    unknown_keys_in_file,
)
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, Place, placed_eval_set_items

if TYPE_CHECKING:
    from tenxeval_tui.runs.case_scan import SetScan


def eval_set_key_problems(
    path: str | Path, *, severity: str = "warning", scan: SetScan | None = None
) -> list[Problem]:
    """``unknown_keys_in_file(path, EvalSet, severity=severity)``, the file read a case at
    a time (see the module). ``scan``: fed every item read, so that a run's parent reads
    the file once for this check and its scan of the cases."""
    problems: list[Problem] = []
    try:
        with Path(path).open("rb") as handle:
            index = -1
            for key, value, place in placed_eval_set_items(handle):
                if scan is not None:
                    scan.add(key, value)
                if key is CASE:
                    index += 1
                    problems += _case_problems(path, value, index, place, severity)
                elif key not in FILE_KEYS:
                    problems += _field_problems(path, key, value, place, severity)
    except (OSError, NotStreamable):
        if scan is not None:
            scan.give_up()
        return unknown_keys_in_file(path, EvalSet, severity=severity)
    return problems


def _case_problems(
    path: str | Path, case: object, index: int, place: Place, severity: str
) -> list[Problem]:
    found = unknown_keys_at(case, EvalCase, ("eval_cases", index))
    if not found:
        return []
    within = [item.path[2:] for item in found]  # their paths in the case's own text
    return placed_problems(
        path, place.raw(), found, within, severity=severity, origin=place.line_column()
    )


def _field_problems(
    path: str | Path, key: str, value: object, place: Place, severity: str
) -> list[Problem]:
    """A top-level field (``place``: from its key to the end of its value)."""
    found = unknown_keys_at({key: value}, EvalSet, ())
    if not found:
        return []
    text = "{" + place.raw() + "}"  # the field as an object: located as in the file
    return placed_problems(
        path,
        text,
        found,
        [item.path for item in found],
        severity=severity,
        origin=place.line_column(),
        shift=1,
    )


__all__ = ["eval_set_key_problems"]
