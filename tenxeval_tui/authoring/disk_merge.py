"""Keep both: the file's new version on disk with the unsaved edits applied, case by case.

When an eval set changes on disk while it has unsaved edits, and the two touched
different cases, nothing has to be lost. The merge is three-way, with the text last
loaded or saved as the common base; cases are matched by their ``eval_id`` there:

- a case only I changed, added or deleted takes my version; one only the disk
  changed, added or deleted takes the disk's; the same change on both sides is one;
- a case changed (or deleted) on both sides differently is a *conflict*, and so is an
  eval set field (name, id, metadata...) both changed, an ``eval_id`` both sides now
  use for different cases, and cases reordered on both sides differently;
- order: the side that moved cases gives the order; the other side's new cases go
  after the case they followed there.

With no conflict the result is a new document opened on the disk's text, with my
edits applied as undoable steps on top (so untouched cases keep the disk's bytes and
``ctrl+z`` walks back to the disk's version). No UI import.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.authoring.edit_steps import CaseState
from tenxeval_tui.evaluation.errors import EvalFileError

_MISSING = object()

Key = tuple[str, Any]
"""A case in the merge: ``("base", eval_id)``, ``("mine", uid)`` or ``("disk", eval_id)``."""


@dataclass(slots=True)
class DiskMerge:
    """The outcome: a merged document, or why there is none."""

    document: EvalSetDocument | None = None
    conflicts: list[str] = field(default_factory=list)
    """Why the two versions cannot be merged, one line each (empty when merged)."""
    applied: list[str] = field(default_factory=list)
    """My edits applied on top of the disk's version, one line each."""


def _same(a: Any, b: Any) -> bool:
    # As JSON text: 1, 1.0 and true are equal in Python, not in the file.
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def _duplicates(ids: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    repeated: list[str] = []
    for eval_id in ids:
        if eval_id in seen and eval_id not in repeated:
            repeated.append(eval_id)
        seen.add(eval_id)
    return repeated


def _disk_problems(disk: EvalSetDocument, changed: list[dict[str, Any]]) -> list[str]:
    """What the eval-set model says of the disk's top-level fields and its new cases."""
    from tenxeval_tui.evaluation.dataset import EvalSet

    try:
        EvalSet.from_data({**disk.header_fields, "eval_cases": changed})
    except ValidationError as exc:
        lines = []
        for error in exc.errors()[:3]:
            loc = [str(part) for part in error["loc"]]
            if len(loc) > 1 and loc[0] == "eval_cases" and loc[1].isdigit():
                loc[:2] = [f"case {changed[int(loc[1])].get('eval_id')!r}"]  # not its place
            lines.append(f"the file on disk has a problem: {'.'.join(loc)}: {error['msg']}")
        return lines
    return []


def interleave(spine: list[Key], other: list[Key], kind: str) -> list[Key]:
    """``spine`` with the keys of ``kind`` from ``other`` put after the key they follow there.

    A key of ``other`` that is in ``spine`` is an anchor; one of ``kind`` (new on that
    side) goes after the last anchor before it (at the start when there is none).
    """
    in_spine = set(spine)
    followers: dict[Key | None, list[Key]] = {}
    anchor: Key | None = None
    for key in other:
        if key in in_spine:
            anchor = key
        elif key[0] == kind:
            followers.setdefault(anchor, []).append(key)
    merged = list(followers.get(None, []))
    for key in spine:
        merged.append(key)
        merged += followers.get(key, [])
    return merged


class _Merge:
    """One three-way merge of ``mine`` (a document with edits) and the ``disk`` text."""

    def __init__(self, mine: EvalSetDocument, base: list[CaseState], disk: EvalSetDocument):
        self.mine, self.disk = mine, disk
        self.conflicts: list[str] = []
        self.applied: list[str] = []
        self.base = {case.eval_id: case for case in base}
        self.base_id = {case.uid: case.eval_id for case in base}
        self.base_order = [case.eval_id for case in base]
        self.disk_data = {case.eval_id: case.data for case in disk.cases}
        current = {case.uid: case for case in mine.cases}
        # Cases are replaced, never changed in place: another object is an edit.
        self.my_changes = {
            old.eval_id: current[old.uid]
            for old in base
            if old.uid in current and current[old.uid] is not old
        }
        self.my_deletions = [case.eval_id for case in base if case.uid not in current]
        self.my_additions = [case for case in mine.cases if case.uid not in self.base_id]

    def disk_changed(self, eval_id: str) -> bool:
        return eval_id in self.disk_data and not _same(
            self.disk_data[eval_id], self.base[eval_id].data
        )

    def check_cases(self) -> None:
        for eval_id, case in self.my_changes.items():
            if eval_id not in self.disk_data:
                self.conflicts.append(f"case {eval_id!r}: edited here, deleted on disk")
            elif self.disk_changed(eval_id) and (
                case.drafts or not _same(case.data, self.disk_data[eval_id])
            ):
                self.conflicts.append(f"case {eval_id!r}: changed here and on disk")
        for eval_id in self.my_deletions:
            if self.disk_changed(eval_id):
                self.conflicts.append(f"case {eval_id!r}: deleted here, changed on disk")

    def check_ids(self, order: list[Key]) -> None:
        """An ``eval_id`` used by two cases after the merge that neither side alone has."""
        mine_alone = set(_duplicates(case.eval_id for case in self.mine.cases))
        for eval_id in _duplicates(self.final_id(key) for key in order):
            if eval_id not in mine_alone:
                self.conflicts.append(f"case id {eval_id!r}: used here and on disk")

    def final_id(self, key: Key) -> str:
        kind, value = key
        if kind == "mine":
            return self.mine.case(value).eval_id
        if kind == "base" and value in self.my_changes:
            return self.my_changes[value].eval_id
        return str(value)

    def header_edits(self) -> dict[str, Any]:
        """The top-level fields to set on the disk's version (``_MISSING``: remove)."""
        base = self.mine.base_header or {}
        mine, disk = self.mine.header_fields, self.disk.header_fields
        edits: dict[str, Any] = {}
        for key in dict.fromkeys([*base, *mine, *disk]):
            b, m, d = (side.get(key, _MISSING) for side in (base, mine, disk))
            if m is b or (m is not _MISSING and b is not _MISSING and _same(m, b)):
                continue  # not mine: the disk's stays
            if (d is _MISSING and b is _MISSING) or (
                d is not _MISSING and b is not _MISSING and _same(d, b)
            ):
                edits[key] = m
            elif not (m is not _MISSING and d is not _MISSING and _same(m, d)):
                self.conflicts.append(f"eval set field {key!r}: changed here and on disk")
        return edits

    def order(self) -> list[Key]:
        """The cases of the merge, in order."""
        mine_keys: list[Key] = [
            ("base", self.base_id[c.uid]) if c.uid in self.base_id else ("mine", c.uid)
            for c in self.mine.cases
        ]
        disk_keys: list[Key] = [
            ("base", c.eval_id) if c.eval_id in self.base else ("disk", c.eval_id)
            for c in self.disk.cases
        ]
        common = set(mine_keys) & set(disk_keys)
        base = [("base", i) for i in self.base_order if ("base", i) in common]
        mine = [k for k in mine_keys if k in common]
        disk = [k for k in disk_keys if k in common]
        if mine != base and disk != base and mine != disk:
            self.conflicts.append("the order of the cases: changed here and on disk")
        if mine != base:
            spine = [k for k in mine_keys if k[0] == "mine" or k in common]
            return interleave(spine, disk_keys, "disk")
        spine = [k for k in disk_keys if k[0] == "disk" or k in common]
        return interleave(spine, mine_keys, "mine")

    def apply(self, headers: dict[str, Any], order: list[Key]) -> None:
        """My edits, as steps on the disk's document."""
        disk = self.disk
        uid_of = {case.eval_id: case.uid for case in disk.cases}
        for key, value in headers.items():
            disk.set_header_value(key, None if value is _MISSING else value)
            self.applied.append(f"eval set field {key!r}")
        for eval_id in self.my_deletions:
            if eval_id in uid_of:
                disk.delete_case(uid_of.pop(eval_id))
                self.applied.append(f"case {eval_id!r} deleted")
        for eval_id, case in self.my_changes.items():
            if case.drafts or not _same(case.data, self.disk_data[eval_id]):
                disk.put_case(uid_of[eval_id], case.data, case.drafts)
                self.applied.append(f"case {eval_id!r} edited")
        kept = [uid_of[value] for kind, value in order if kind != "mine"]
        if kept != [case.uid for case in disk.cases]:
            for target, uid in enumerate(kept):
                source = disk.index_of(uid)
                if source != target:
                    disk.move_case(uid, target - source)
            self.applied.append("the order of the cases")
        for index, (kind, value) in enumerate(order):
            if kind == "mine":
                case = self.mine.case(value)
                disk.insert_case(index, case.data, case.drafts)
                self.applied.append(f"case {case.eval_id!r} added")


def merge_disk_version(mine: EvalSetDocument, disk_text: str) -> DiskMerge:
    """``disk_text`` (the file's new version) with ``mine``'s unsaved edits applied.

    ``mine`` is left as it is; the result's document is new, unsaved, its undo steps
    being my edits. No document when there are conflicts (listed), or when the
    versions cannot be matched up by case (a file never saved, repeated ids).
    """
    base = mine.base_cases
    if base is None or mine.path is None:
        return DiskMerge(conflicts=["this eval set was never saved: there is no common version"])
    try:
        disk = EvalSetDocument.from_text(mine.path, disk_text)
    except EvalFileError as exc:
        return DiskMerge(conflicts=[f"the file on disk does not load: {exc.first.message}"])
    for side, cases in (("as last loaded", base), ("on disk", disk.cases)):
        repeated = _duplicates(case.eval_id for case in cases)
        if repeated:
            return DiskMerge(
                conflicts=[f"case id {repeated[0]!r} is used twice {side}: cases do not match up"]
            )
    merge = _Merge(mine, base, disk)
    changed = [
        case.data
        for case in disk.cases
        if case.eval_id not in merge.base or merge.disk_changed(case.eval_id)
    ]
    merge.conflicts += _disk_problems(disk, changed)
    merge.check_cases()
    headers = merge.header_edits()
    order = merge.order()
    merge.check_ids(order)
    if merge.conflicts:
        return DiskMerge(conflicts=merge.conflicts)
    merge.apply(headers, order)
    return DiskMerge(disk, applied=merge.applied)
