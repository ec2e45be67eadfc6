"""How one version of an eval set differs from another, case by case (for PR review).

Cases are matched by ``eval_id``: a case only in the new version is *added*, only in
the old one *removed*, in both with other content *changed*, with the fields that
changed. Content is compared as the case hash sees it
(:mod:`tenxeval_tui.evaluation.provenance.hashing`): layout, key order and defaults
spelled out or left out make no difference, nor a turn's generated ``invocation_id``;
so a case is changed exactly when its ``case_sha256`` changed. Field paths read like
``conversation[0].expected_final_response.content``. No UI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.provenance.hashing import case_content

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
"""The value of a field on the side that does not have it."""


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field that differs: its path and its value on each side (:data:`MISSING`)."""

    path: str
    old: Any
    new: Any


@dataclass(frozen=True, slots=True)
class CaseDiff:
    """One case that was added, removed or changed."""

    eval_id: str
    kind: str
    """``added``, ``removed`` or ``changed``."""
    name: str = ""
    fields: list[FieldChange] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``eval_id (name)``, or the id alone."""
        return (
            f"{self.eval_id} ({self.name})"
            if self.name and self.name != self.eval_id
            else self.eval_id
        )


@dataclass(frozen=True, slots=True)
class EvalSetDiff:
    """Everything that differs between two versions of an eval set."""

    cases: list[CaseDiff]
    set_fields: list[FieldChange]
    """Changes of the eval set's own fields (id, name, description, metadata)."""
    unchanged: int

    def of_kind(self, kind: str) -> list[CaseDiff]:
        """The cases added, removed or changed."""
        return [c for c in self.cases if c.kind == kind]

    @property
    def empty(self) -> bool:
        """Whether the two versions hold the same content."""
        return not self.cases and not self.set_fields


def field_changes(old: Any, new: Any, path: str = "") -> list[FieldChange]:
    """Every leaf that differs between two JSON values (lists item by item)."""
    if isinstance(old, dict) and isinstance(new, dict):
        changes: list[FieldChange] = []
        for key in dict.fromkeys([*old, *new]):
            where = f"{path}.{key}" if path else str(key)
            changes += field_changes(old.get(key, MISSING), new.get(key, MISSING), where)
        return changes
    if isinstance(old, list) and isinstance(new, list):
        changes = []
        for i in range(max(len(old), len(new))):
            before = old[i] if i < len(old) else MISSING
            after = new[i] if i < len(new) else MISSING
            changes += field_changes(before, after, f"{path}[{i}]")
        return changes
    if (old is MISSING and new is MISSING) or (type(old) is type(new) and old == new):
        return []
    return [FieldChange(path or "(value)", old, new)]


def _set_fields(eval_set: EvalSet) -> dict[str, Any]:
    return eval_set.model_dump(mode="json", exclude_defaults=True, exclude={"eval_cases"})


def diff_eval_sets(old: EvalSet, new: EvalSet) -> EvalSetDiff:
    """What changed from ``old`` to ``new``: cases in the new file's order, then the
    removed ones in the old file's order."""
    before: dict[str, EvalCase] = {c.eval_id: c for c in old.eval_cases}
    after: dict[str, EvalCase] = {c.eval_id: c for c in new.eval_cases}
    cases: list[CaseDiff] = []
    unchanged = 0
    for eval_id, case in after.items():
        if eval_id not in before:
            cases.append(CaseDiff(eval_id, "added", case.name))
            continue
        changes = field_changes(case_content(before[eval_id]), case_content(case))
        if changes:
            cases.append(CaseDiff(eval_id, "changed", case.name, changes))
        else:
            unchanged += 1
    cases += [CaseDiff(i, "removed", c.name) for i, c in before.items() if i not in after]
    return EvalSetDiff(cases, field_changes(_set_fields(old), _set_fields(new)), unchanged)


__all__ = ["MISSING", "CaseDiff", "EvalSetDiff", "FieldChange", "diff_eval_sets", "field_changes"]
