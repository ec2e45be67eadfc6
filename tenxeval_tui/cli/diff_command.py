"""``tenxeval-tui diff OLD NEW`` (or ``diff --git REF FILE``): an eval set's change, case
by case, for review (see :mod:`tenxeval_tui.authoring.eval_set_diff`).

Prints the cases added, removed and changed (with each changed field, old -> new) and
the eval set's own fields that changed; ``--json`` prints the same as JSON. With
``--git REF`` the old version is FILE as git holds it at REF (a commit, branch, tag,
``HEAD~1``). Exit codes as diff(1): 0 the same, 1 different, 2 a file that does not load
(named with its line and column) or a revision git cannot give.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from tenxeval_tui.authoring.eval_set_diff import MISSING, EvalSetDiff, diff_eval_sets
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.inert import inert, inert_json
from tenxeval_tui.evaluation.provenance import GitError, file_at_ref

SHOWN_VALUE = 100
"""Characters of a value shown in the text output (longer ones are cut, marked ``…``)."""


class DiffInputError(Exception):
    """A side of the diff cannot be loaded; the message says which and why."""


def _load(path: Path, label: str | None = None, data: bytes | None = None) -> EvalSet:
    """The eval set in ``path`` (or in ``data``, shown as ``label``)."""
    try:
        if data is None:
            return EvalSet.from_file(path)
        with tempfile.TemporaryDirectory(prefix="tenxeval-diff-") as folder:
            copy = Path(folder) / path.name
            copy.write_bytes(data)
            try:
                return EvalSet.from_file(copy)
            except EvalFileError as exc:
                raise DiffInputError(str(exc).replace(str(copy), label or str(path))) from None
    except FileNotFoundError:
        raise DiffInputError(f"{path}: file not found") from None
    except EvalFileError as exc:
        raise DiffInputError(str(exc)) from None


def load_sides(files: list[str], ref: str | None) -> tuple[str, EvalSet, str, EvalSet]:
    """``(old label, old set, new label, new set)`` of the command's arguments."""
    if ref is not None:
        if len(files) != 1:
            raise DiffInputError("--git REF takes one FILE (its version at REF is the old one)")
        path = Path(files[0])
        new = _load(path)
        label = f"{path}@{ref}"
        try:
            old = _load(path, label, file_at_ref(path, ref))
        except GitError as exc:
            raise DiffInputError(str(exc)) from None
        return label, old, str(path), new
    if len(files) != 2:
        raise DiffInputError("give OLD and NEW (or --git REF FILE)")
    return files[0], _load(Path(files[0])), files[1], _load(Path(files[1]))


def _shown(value: Any) -> str:
    if value is MISSING:
        return "(none)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def diff_lines(old: str, new: str, found: EvalSetDiff) -> list[str]:
    """The text of the change from ``old`` to ``new``."""
    counts = [f"{len(found.of_kind(k))} {k}" for k in ("added", "removed", "changed")]
    lines = [f"{old} -> {new}: {', '.join(counts)}, {found.unchanged} unchanged"]
    marks = {"added": "+", "removed": "-", "changed": "~"}
    for case in found.cases:
        lines.append(f"{marks[case.kind]} {case.kind:<8} {case.label}")
        lines.extend(f"    {c.path}: {_shown(c.old)} -> {_shown(c.new)}" for c in case.fields)
    if found.set_fields:
        lines.append("eval set fields:")
        lines.extend(f"    {c.path}: {_shown(c.old)} -> {_shown(c.new)}" for c in found.set_fields)
    return lines


def _json_value(value: Any) -> Any:
    return None if value is MISSING else value


def diff_json(old: str, new: str, found: EvalSetDiff) -> dict[str, Any]:
    """The change as ``diff --json`` prints it (a side without a field has ``null``)."""

    def fields(changes: list[Any]) -> list[dict[str, Any]]:
        return [
            {"path": c.path, "old": _json_value(c.old), "new": _json_value(c.new),
             "only_old": c.new is MISSING, "only_new": c.old is MISSING}
            for c in changes
        ]  # fmt: skip

    return {
        "old": old,
        "new": new,
        "unchanged": found.unchanged,
        "cases": [
            {"eval_id": c.eval_id, "name": c.name, "change": c.kind, "fields": fields(c.fields)}
            for c in found.cases
        ],
        "eval_set_fields": fields(found.set_fields),
    }


def diff_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui diff``: the exit code (0 same, 1 different, 2 trouble)."""
    try:
        old_label, old, new_label, new = load_sides(list(args.files), args.git)
    except DiffInputError as exc:
        print(inert(f"tenxeval-tui diff: {exc}", multiline=True), file=sys.stderr)
        return 2
    found = diff_eval_sets(old, new)
    if args.json:
        print(inert_json(json.dumps(diff_json(old_label, new_label, found), indent=2)))
    else:
        print(inert("\n".join(diff_lines(old_label, new_label, found)), multiline=True))
    return 0 if found.empty else 1


__all__ = ["DiffInputError", "diff_command", "diff_json", "diff_lines"]
