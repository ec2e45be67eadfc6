"""What is wrong with the cases being edited, field by field (no UI import)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from tenxeval_tui.edit_steps import CaseState


def _unnamed_calls(data: dict[str, Any]) -> Iterator[str]:
    for t, turn in enumerate(data.get("conversation") or []):
        for c, call in enumerate(turn.get("expected_tool_trajectory") or []):
            if not str(call.get("name", "")).strip():
                yield f"turns.{t}.tools.{c}.name"


def case_problems(cases: Sequence[CaseState], case: CaseState) -> dict[str, str]:
    """Field key -> message for every problem of ``case`` (one of ``cases``): text that
    does not parse, an empty or duplicate ``eval_id``, a tool call without a name."""
    found = {key: message for key, (_, message) in case.drafts.items()}
    if not case.eval_id.strip():
        found["eval_id"] = "eval_id must not be empty"
    else:
        same = [i for i, other in enumerate(cases) if other.eval_id == case.eval_id]
        if len(same) > 1:
            where = ", ".join(f"#{i + 1}" for i in same)
            found["eval_id"] = f"duplicate eval_id {case.eval_id!r} (cases {where})"
    for key in _unnamed_calls(case.data):
        found.setdefault(key, "a tool call needs a name")
    return found


def cases_with_problems(cases: Sequence[CaseState]) -> set[int]:
    """The uids of the cases with at least one problem (one pass over all of them)."""
    counts = Counter(case.eval_id for case in cases)
    return {
        case.uid
        for case in cases
        if case.drafts
        or counts[case.eval_id] > 1
        or not case.eval_id.strip()
        or next(_unnamed_calls(case.data), None) is not None
    }
