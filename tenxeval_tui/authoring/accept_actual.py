"""Accepting the actual into an eval set file, through the editor's document model.

UI-free. :func:`plan_accept` works out what the core's
:func:`~tenxeval_tui.evaluation.actual.actual_as_expected` makes of a case of an open
:class:`~tenxeval_tui.authoring.document.EvalSetDocument` and a run of it: the case's
JSON object before and after, where only the chosen expectation keys of each turn
change (``expected_final_response``'s content, ``expected_tool_trajectory``,
``expected_node_order``); every other key, the reply's ``metadata`` and unknown keys
included, is kept as the file has it. :func:`apply_accept` puts the new case into the document (one undo step) and
saves it (atomic; the file's other cases keep their bytes).

:func:`changed_since_run` says whether the file was written after the run: the run's
expectations may then not be those the file holds, and accepting is refused.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.actual import PARTS, NotAcceptable, actual_as_expected
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult

PART_KEYS = {
    "response": "expected_final_response",
    "tools": "expected_tool_trajectory",
    "nodes": "expected_node_order",
}
"""The turn key each part of :data:`~tenxeval_tui.evaluation.actual.PARTS` writes."""


@dataclass(frozen=True, slots=True)
class AcceptPlan:
    """A case's JSON object before and after accepting a run's actual behaviour."""

    uid: int
    eval_id: str
    parts: tuple[str, ...]
    before: dict[str, Any]
    after: dict[str, Any]

    @property
    def changes(self) -> bool:
        """Whether accepting changes the case at all."""
        return self.before != self.after

    def diff(self) -> str:
        """A unified diff of the case's JSON, before and after."""
        old = json.dumps(self.before, indent=2, ensure_ascii=False).splitlines()
        new = json.dumps(self.after, indent=2, ensure_ascii=False).splitlines()
        lines = difflib.unified_diff(
            old, new, f"{self.eval_id} (expected now)", f"{self.eval_id} (actual)", lineterm=""
        )
        return "\n".join(lines)


def plan_accept(
    document: EvalSetDocument,
    result: EvalCaseResult,
    parts: Collection[str] = PARTS,
) -> AcceptPlan:
    """What accepting ``result`` (one run: a repeat, or a case that ran once) as the
    expectations of its case in ``document`` would write.

    Raises :class:`~tenxeval_tui.evaluation.actual.NotAcceptable` saying why when the
    case is not in the file, does not validate, or the run cannot be accepted.
    """
    state = next((c for c in document.cases if c.eval_id == result.eval_id), None)
    if state is None:
        where = document.path.name if document.path else "the eval set"
        raise NotAcceptable(f"no case {result.eval_id!r} in {where}")
    if state.drafts:
        raise NotAcceptable(f"case {result.eval_id!r} has fields being edited that do not parse")
    try:
        case = EvalCase.model_validate(state.data)
    except ValidationError as exc:
        message = exc.errors()[0]["msg"]
        raise NotAcceptable(f"case {result.eval_id!r} is not valid: {message}") from None
    accepted = actual_as_expected(case, result, parts)
    after = copy.deepcopy(state.data)
    turns = after.get("conversation")
    assert isinstance(turns, list)  # the case validated
    for turn, invocation in zip(turns, accepted.conversation, strict=False):
        # defaults left out (no call_id, result or empty metadata): as a person writes it
        dumped = invocation.model_dump(mode="json", exclude_defaults=True)
        for part in PARTS:
            if part in parts:
                key = PART_KEYS[part]
                turn[key] = _accepted(turn.get(key), dumped.get(key, []))
    return AcceptPlan(
        state.uid, result.eval_id, tuple(p for p in PARTS if p in parts), state.data, after
    )


def _accepted(before: Any, accepted: Any) -> Any:
    """A turn key's new value: a reply changes only its ``content`` (the file's
    ``metadata``, role and unknown keys stay as written); the lists are replaced whole."""
    if not (isinstance(before, dict) and isinstance(accepted, dict)):
        return accepted
    kept = {k: v for k, v in before.items() if k != "parts"}  # ADK's text parts: now content
    kept["content"] = accepted.get("content", "")
    kept.setdefault("role", accepted.get("role", "assistant"))
    return kept


def apply_accept(document: EvalSetDocument, plan: AcceptPlan) -> list[str]:
    """Put the accepted case into ``document`` (one undo step) and save the file
    atomically; the document's problems instead when it cannot be saved (nothing is
    written then, and the edit stays to undo)."""
    document.seal()
    document.put_case(plan.uid, plan.after)
    document.seal()
    return document.save()


def changed_since_run(path: Path, run_timestamp: float) -> bool:
    """Whether ``path`` was written after a run that ended at ``run_timestamp``."""
    return run_timestamp > 0 and path.stat().st_mtime > run_timestamp


__all__ = ["PART_KEYS", "AcceptPlan", "apply_accept", "changed_since_run", "plan_accept"]
