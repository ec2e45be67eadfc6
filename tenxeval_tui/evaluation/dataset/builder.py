"""EvalSetBuilder: a fluent way to write eval sets in Python."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import (
    EvalCase,
    EvalSet,
    ExpectedTools,
    SessionInput,
    ToolCall,
)


class EvalSetBuilder:
    """Builds an :class:`EvalSet` case by case.

    The eval set's ``eval_set_id`` is a generated UUID; ``name`` is the label
    shown in reports (``"eval_set"`` when not given, as in 10xGraph). Cases without ``case_id`` get ids ``case_1``, ``case_2``...
    (skipping ids already taken).
    """

    def __init__(self, name: str = "eval_set", description: str = "") -> None:
        self._eval_set = EvalSet(eval_set_id=str(uuid.uuid4()), name=name, description=description)

    @property
    def name(self) -> str:
        """The eval set's name (settable)."""
        return self._eval_set.name

    @name.setter
    def name(self, value: str) -> None:
        self._eval_set.name = value

    @property
    def cases(self) -> list[EvalCase]:
        """The cases added so far, in order (the builder's own list, as in 10xGraph)."""
        return self._eval_set.eval_cases

    @property
    def eval_set_id(self) -> str:
        """The generated id of the eval set being built."""
        return self._eval_set.eval_set_id

    def _next_id(self) -> str:
        taken = {c.eval_id for c in self._eval_set.eval_cases}
        index = len(self._eval_set.eval_cases) + 1
        while f"case_{index}" in taken:
            index += 1
        return f"case_{index}"

    def add_case(
        self,
        query: str,
        expected: str | None = None,
        case_id: str | None = None,
        expected_tools: ExpectedTools = None,
        expected_node_order: list[str] | None = None,
        name: str = "",
        description: str = "",
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        session_input: SessionInput | None = None,
    ) -> EvalSetBuilder:
        """Add a single-turn case; ``expected_tools`` are names or :class:`ToolCall`s.

        The first seven parameters are in 10xGraph's order (``case_id`` third).
        """
        return self.add_multi_turn(
            conversation=[(query, expected)],
            expected_tools=expected_tools,
            expected_node_order=expected_node_order,
            case_id=case_id,
            name=name,
            description=description,
            tags=tags,
            metadata=metadata,
            session_input=session_input,
        )

    def add_tool_test(
        self,
        query: str,
        tool_name: str,
        tool_args: dict[str, Any] | None = None,
        expected_response: str | None = None,
        case_id: str | None = None,
        name: str = "",
        tags: list[str] | None = None,
    ) -> EvalSetBuilder:
        """Add a case whose point is one tool call; the reply defaults to ``"Result from {tool_name}"``."""
        return self.add_case(
            query=query,
            expected=(
                expected_response if expected_response is not None else f"Result from {tool_name}"
            ),
            expected_tools=[ToolCall(name=tool_name, args=dict(tool_args or {}))],
            case_id=case_id,
            name=name,
            tags=tags,
        )

    def add_multi_turn(
        self,
        conversation: Sequence[tuple[str, str | None]],
        case_id: str | None = None,
        expected_tools: ExpectedTools = None,
        name: str = "",
        description: str = "",
        expected_node_order: list[str] | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        session_input: SessionInput | None = None,
    ) -> EvalSetBuilder:
        """Add a case of ``(user, expected reply)`` turns; expected tools go on the first turn.

        The first five parameters are in 10xGraph's order (``case_id`` second).
        """
        self._eval_set.add_case(
            EvalCase.multi_turn(
                eval_id=case_id or self._next_id(),
                conversation=conversation,
                expected_tools=expected_tools,
                expected_node_order=expected_node_order,
                name=name,
                description=description,
                tags=tags,
                metadata=metadata,
                session_input=session_input,
            )
        )
        return self

    def add(self, case: EvalCase) -> EvalSetBuilder:
        """Add a ready-made :class:`EvalCase`."""
        self._eval_set.add_case(case)
        return self

    def build(self) -> EvalSet:
        """The eval set built so far (a copy: later additions do not change it)."""
        return self._eval_set.model_copy(deep=True)

    def save(self, path: str | Path) -> EvalSet:
        """Write the eval set to ``path`` and return it."""
        eval_set = self.build()
        eval_set.to_file(path)
        return eval_set

    @classmethod
    def quick(cls, *pairs: tuple[str, str], name: str = "quick_tests") -> EvalSet:
        """An eval set from ``(query, expected reply)`` pairs; case ids ``test_1``, ``test_2``..."""
        builder = cls(name)
        for number, (query, expected) in enumerate(pairs, start=1):
            builder.add_case(query=query, expected=expected, case_id=f"test_{number}")
        return builder.build()

    @classmethod
    def from_conversations(
        cls, conversations: Sequence[dict[str, str]], name: str = "conversation_tests"
    ) -> EvalSet:
        """An eval set from ``{"user": ..., "assistant": ...}`` dicts, one case each,
        with ids ``conv_1``, ``conv_2``... A dict without ``"user"`` is an error naming it
        (10xGraph sends an empty message instead)."""
        builder = cls(name)
        for index, conv in enumerate(conversations):
            if "user" not in conv:
                raise ValueError(f"conversations[{index}] has no 'user' key")
            builder.add_case(
                query=conv["user"], expected=conv.get("assistant"), case_id=f"conv_{index + 1}"
            )
        return builder.build()

    @classmethod
    def from_file(cls, path: str | Path) -> EvalSetBuilder:
        """A builder that starts from the eval set in ``path`` (keeping its id)."""
        loaded = EvalSet.from_file(path)
        builder = cls(loaded.name, loaded.description)
        builder._eval_set = loaded
        return builder


def create_simple_eval_set(
    eval_set_id: str, cases: Sequence[tuple[str, str, str | None]]
) -> EvalSet:
    """An eval set from ``(user_query, expected_response, name)`` tuples.

    Case ids are ``case_{index}`` (from 0); a ``None`` name becomes ``"Case {index}"``.
    """
    return EvalSet(
        eval_set_id=eval_set_id,
        name=eval_set_id,
        eval_cases=[
            EvalCase.single_turn(
                eval_id=f"case_{index}",
                user_query=query,
                expected_response=expected,
                name=name if name is not None else f"Case {index}",
            )
            for index, (query, expected, name) in enumerate(cases)
        ],
    )
