"""The ``metadata.tools`` sections of an eval set or scenario file, checked where they are
written.

10xGraph 0.10.3 keeps ``metadata`` free-form, so an eval set with a section that cannot
be used still loads; its run would make each case concerned an error. ``validate``
reports such a section before any run, each problem with its line and column::

    support.evalset.json:41:13: eval_cases[3].metadata.tools.faults[0]: a fault needs
    exactly one of raises, timeout (true) or returns
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.files.fileio import read_text
from tenxeval_tui.evaluation.files.jsonlocate import PathPart, format_path, locate_many
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY, section_problems


def _section_of(holder: Any) -> Any:
    metadata = holder.get("metadata") if isinstance(holder, dict) else None
    return metadata.get(TOOLS_KEY) if isinstance(metadata, dict) else None


def tool_section_problems(path: Path, text: str | None = None) -> list[Problem]:
    """Every problem of the ``metadata.tools`` sections (the file's and each case's, or
    each scenario's) of the eval set or scenario file ``path`` (its ``text`` when given),
    located in the file. A file that is no JSON has none here (its loading says what is
    wrong)."""
    if text is None:
        text = read_text(path)
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    holders: list[tuple[list[PathPart], Any]] = [([], data)]
    for key in ("eval_cases", "scenarios"):
        cases = data.get(key)
        if isinstance(cases, list):
            holders += [([key, index], case) for index, case in enumerate(cases)]
    found: list[tuple[list[PathPart], str]] = []
    for where, holder in holders:
        for loc, message in section_problems(_section_of(holder)):
            found.append(([*where, "metadata", TOOLS_KEY, *loc], message))
    places = locate_many(text, [where for where, _ in found])
    return [
        Problem(str(path), message, line, column, format_path(where))
        for (where, message), (line, column) in zip(found, places, strict=True)
    ]


__all__ = ["tool_section_problems"]
