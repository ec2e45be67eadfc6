"""A recorded conversation with the agent, made into a multi-turn case.

Each :class:`RecordedTurn` is what one turn of a chat did (the user's message, the
agent's reply, its tool calls with their arguments, the nodes it went through);
:func:`case_from_recording` writes the case that expects exactly that, or only the parts
chosen (:class:`RecordParts`). No UI import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RecordedTurn:
    """One turn of a chat: what the user said and what the agent did."""

    user: str
    reply: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """Each ``{"name", "args"}`` (``result`` too, not expected by a case)."""
    nodes: list[str] = field(default_factory=list)
    error: str | None = None

    @classmethod
    def from_line(cls, data: dict[str, Any]) -> RecordedTurn:
        """The turn of a ``turn_end`` line of the chat child."""
        calls = [c for c in data.get("tool_calls") or [] if isinstance(c, dict)]
        return cls(
            user=str(data.get("user", "")),
            reply=str(data.get("reply") or ""),
            tool_calls=calls,
            nodes=[str(n) for n in data.get("nodes") or []],
            error=str(data["error"]) if data.get("error") else None,
        )


@dataclass(frozen=True)
class RecordParts:
    """Which parts of a recording a case expects (the user's messages always)."""

    replies: bool = True
    tool_calls: bool = True
    args: bool = True
    """With ``tool_calls``: the calls' arguments too (else names only, args ``{}``)."""
    nodes: bool = True


def user_messages(case: dict[str, Any]) -> list[str]:
    """The user's message of every turn of a case (its JSON object), in order."""
    from tenxeval_tui.authoring.case_fields import message_text

    turns = case.get("conversation") or []
    return [message_text(t.get("user_content")) for t in turns if isinstance(t, dict)]


def free_eval_id(taken: Iterable[str], base: str = "recorded") -> str:
    """``recorded_1``, ``recorded_2``...: the first not in ``taken``."""
    used = set(taken)
    index = 1
    while f"{base}_{index}" in used:
        index += 1
    return f"{base}_{index}"


def case_from_recording(
    turns: Sequence[RecordedTurn], parts: RecordParts, eval_id: str, name: str = ""
) -> dict[str, Any]:
    """The JSON object of a case whose turns are ``turns`` and expect what ``parts`` keep."""
    from tenxeval_tui.evaluation.dataset.eval_set import (
        EvalCase,
        Invocation,
        MessageContent,
        ToolCall,
    )

    conversation = []
    for turn in turns:
        calls = [
            ToolCall(
                name=str(call.get("name", "")),
                args=dict(call.get("args") or {}) if parts.args else {},
            )
            for call in (turn.tool_calls if parts.tool_calls else [])
        ]
        conversation.append(
            Invocation(
                user_content=MessageContent.user(turn.user),
                expected_final_response=(
                    MessageContent(role="assistant", content=turn.reply)
                    if parts.replies and turn.reply
                    else None
                ),
                expected_tool_trajectory=calls,
                expected_node_order=list(turn.nodes) if parts.nodes else [],
            )
        )
    case = EvalCase(eval_id=eval_id, name=name, conversation=conversation)
    data: dict[str, Any] = case.model_dump(mode="json")
    return data


__all__ = [
    "RecordParts",
    "RecordedTurn",
    "case_from_recording",
    "free_eval_id",
    "user_messages",
]
