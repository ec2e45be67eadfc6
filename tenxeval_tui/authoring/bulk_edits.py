"""Edits of many cases at once (the editor's bulk edit of the selected cases).

A :class:`BulkEdit` is one operation with its text; :meth:`BulkEdit.apply` gives a case's
JSON object after it (a new object; the same one when nothing changes), so that the
document stores all the changed cases as one undo step
(:meth:`~tenxeval_tui.authoring.document.EvalSetDocument.replace_cases`). No UI import.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tenxeval_tui.authoring.case_fields import message_text


class BulkOperation(StrEnum):
    """What a bulk edit does to each case."""

    ADD_TAG = "add_tag"
    REMOVE_TAG = "remove_tag"
    SET_TOOL_CALL = "set_tool_call"
    """Expect a call of ``value`` with ``other`` (JSON args): every call of that name the
    case expects gets these args; a case expecting none gets the call in its last turn."""
    CLEAR_TOOL_CALL = "clear_tool_call"
    """Expect no call of ``value`` in any turn."""
    REPLACE_IN_REPLIES = "replace_in_replies"
    """Replace ``value`` by ``other`` in every expected reply."""


LABELS = {
    BulkOperation.ADD_TAG: "add a tag",
    BulkOperation.REMOVE_TAG: "remove a tag",
    BulkOperation.SET_TOOL_CALL: "set an expected tool call (name, JSON args)",
    BulkOperation.CLEAR_TOOL_CALL: "clear an expected tool call (by name) from every turn",
    BulkOperation.REPLACE_IN_REPLIES: "replace text in the expected replies",
}


class BulkEditError(ValueError):
    """The edit's text cannot be used (the message says why)."""


@dataclass(frozen=True)
class BulkEdit:
    """One operation with its text: ``value`` (the tag, the tool's name, the text to
    find) and ``other`` (the args as a JSON object, the replacement)."""

    operation: BulkOperation
    value: str
    other: str = ""

    def check(self) -> dict[str, Any]:
        """The parsed args of a tool call (``{}`` for the others); :class:`BulkEditError`
        when the text cannot be used."""
        if not self.value.strip() and self.operation != BulkOperation.REPLACE_IN_REPLIES:
            raise BulkEditError("type the tag or the tool's name first")
        if self.operation == BulkOperation.REPLACE_IN_REPLIES and not self.value:
            raise BulkEditError("type the text to replace first")
        if self.operation != BulkOperation.SET_TOOL_CALL:
            return {}
        try:
            args = json.loads(self.other) if self.other.strip() else {}
        except json.JSONDecodeError as exc:
            raise BulkEditError(f"args: invalid JSON: {exc.msg}") from None
        if not isinstance(args, dict):
            raise BulkEditError("args: must be a JSON object ({...})")
        return args

    def apply(self, case: dict[str, Any]) -> dict[str, Any]:
        """``case`` after the edit (``case`` itself when nothing changes)."""
        args = self.check()
        updated = copy.deepcopy(case)
        match self.operation:
            case BulkOperation.ADD_TAG | BulkOperation.REMOVE_TAG:
                _tags(updated, self.value.strip(), add=self.operation == BulkOperation.ADD_TAG)
            case BulkOperation.SET_TOOL_CALL:
                _set_call(_turns(updated), self.value.strip(), args)
            case BulkOperation.CLEAR_TOOL_CALL:
                for turn in _turns(updated):
                    calls = turn.get("expected_tool_trajectory") or []
                    turn["expected_tool_trajectory"] = [
                        c
                        for c in calls
                        if not (isinstance(c, dict) and c.get("name") == self.value.strip())
                    ]
            case BulkOperation.REPLACE_IN_REPLIES:
                for turn in _turns(updated):
                    _replace_reply(turn, self.value, self.other)
        return case if updated == case else updated


def _turns(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in case.get("conversation") or [] if isinstance(t, dict)]


def _tags(case: dict[str, Any], tag: str, *, add: bool) -> None:
    tags = [str(t) for t in case.get("tags") or []]
    if add and tag not in tags:
        case["tags"] = [*tags, tag]
    elif not add and tag in tags:
        case["tags"] = [t for t in tags if t != tag]


def _set_call(turns: list[dict[str, Any]], name: str, args: dict[str, Any]) -> None:
    found = False
    for turn in turns:
        for call in turn.get("expected_tool_trajectory") or []:
            if isinstance(call, dict) and call.get("name") == name:
                call["args"] = dict(args)
                found = True
    if found or not turns:
        return
    from tenxeval_tui.evaluation.dataset.eval_set import ToolCall

    last = turns[-1]
    calls = list(last.get("expected_tool_trajectory") or [])
    calls.append(ToolCall(name=name, args=dict(args)).model_dump(mode="json"))
    last["expected_tool_trajectory"] = calls


def _replace_reply(turn: dict[str, Any], old: str, new: str) -> None:
    reply = turn.get("expected_final_response")
    if reply is None:
        return
    text = message_text(reply)
    if old not in text:
        return
    if isinstance(reply, dict):
        turn["expected_final_response"] = {**reply, "content": text.replace(old, new)}
    else:
        turn["expected_final_response"] = text.replace(old, new)


__all__ = ["LABELS", "BulkEdit", "BulkEditError", "BulkOperation"]
