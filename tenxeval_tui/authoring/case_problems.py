"""What is wrong with the cases being edited, field by field (no UI import)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tenxeval_tui.authoring.edit_steps import CaseState
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY, section_place, section_problems


def _unnamed_calls(data: dict[str, Any]) -> Iterator[str]:
    for t, turn in enumerate(data.get("conversation") or []):
        for c, call in enumerate(turn.get("expected_tool_trajectory") or []):
            if not str(call.get("name", "")).strip():
                yield f"turns.{t}.tools.{c}.name"


def tools_problem(holder: dict[str, Any]) -> str | None:
    """What is wrong with the ``metadata.tools`` section of ``holder`` (a case, or the
    eval set's top-level fields), located in the section; ``None`` when nothing is (a
    run would make the cases concerned errors)."""
    metadata = holder.get("metadata")
    if not isinstance(metadata, dict) or TOOLS_KEY not in metadata:
        return None  # the common case, checked at every keystroke and for every case loaded
    problems = section_problems(metadata[TOOLS_KEY])
    if not problems:
        return None
    loc, message = problems[0]
    return f"{section_place(loc)}: {message}"


def case_problems(case: CaseState, same_id_positions: Sequence[int] = ()) -> dict[str, str]:
    """Field key -> message for every problem of ``case``: text that does not parse, an
    empty or duplicate ``eval_id`` (``same_id_positions``: the places of every case with its
    id, itself included), a tool call without a name, a ``metadata.tools`` section that
    cannot be used (under ``metadata``)."""
    found = {key: message for key, (_, message) in case.drafts.items()}
    if not case.eval_id.strip():
        found["eval_id"] = "eval_id must not be empty"
    elif len(same_id_positions) > 1:
        where = ", ".join(f"#{i + 1}" for i in sorted(same_id_positions))
        found["eval_id"] = f"duplicate eval_id {case.eval_id!r} (cases {where})"
    for key in _unnamed_calls(case.data):
        found.setdefault(key, "a tool call needs a name")
    if "metadata" not in found:
        tools = tools_problem(case.data)
        if tools is not None:
            found["metadata"] = tools
    return found


def _own_problem(case: CaseState) -> bool:
    """Whether the case has a problem of its own (not counting a duplicate id)."""
    return (
        bool(case.drafts)
        or not case.eval_id.strip()
        or next(_unnamed_calls(case.data), None) is not None
        or tools_problem(case.data) is not None
    )


class ProblemIndex:
    """Which cases have problems, kept up to date one case at a time.

    A keystroke changes one case; scanning a set of tens of thousands of cases for
    duplicate ids on each one held the typing up, so the cases are indexed by id and
    each case entering or leaving the set updates the index.
    """

    def __init__(self, cases: Iterable[CaseState] = ()) -> None:
        self._by_id: dict[str, set[int]] = {}
        self._duplicated: set[str] = set()
        self._own: set[int] = set()
        for case in cases:
            self.add(case)

    def add(self, case: CaseState) -> None:
        """Count ``case`` in (a new case, or the new version of an edited one)."""
        same = self._by_id.setdefault(case.eval_id, set())
        same.add(case.uid)
        if len(same) > 1:
            self._duplicated.add(case.eval_id)
        if _own_problem(case):
            self._own.add(case.uid)

    def remove(self, case: CaseState) -> None:
        """Count ``case`` out (removed, or replaced by its edited version)."""
        same = self._by_id.get(case.eval_id)
        if same is not None:
            same.discard(case.uid)
            if len(same) <= 1:
                self._duplicated.discard(case.eval_id)
            if not same:
                del self._by_id[case.eval_id]
        self._own.discard(case.uid)

    def same_id(self, eval_id: str) -> set[int]:
        """The uids of the cases whose id is ``eval_id``."""
        return set(self._by_id.get(eval_id, ()))

    def uids(self) -> set[int]:
        """The uids of the cases with at least one problem."""
        found = set(self._own)
        for eval_id in self._duplicated:
            found |= self._by_id[eval_id]
        return found
