"""Eval sets: the cases an agent is evaluated on, and their JSON files.

The JSON shape is 10xGraph's own (``eval_set_id``, ``name``, ``description``,
``eval_cases[]`` of cases whose ``conversation[]`` holds the invocations), so a
file written by 10xGraph loads unchanged and a file written here loads there.
Fields we do not know are kept and written back: nothing a user wrote is lost.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator, Sequence
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tenxeval_tui.evaluation.dataset.adk import (
    content_from_parts,
    drop_adk_nulls,
    invocation_from_adk,
)
from tenxeval_tui.evaluation.dataset.expectation_checks import (
    expectation_problems,
    first_expectation_problem,
)
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.fileio import atomic_write_text, read_json_model
from tenxeval_tui.evaluation.lean import extra_on_demand

_KEEP_UNKNOWN = ConfigDict(extra="allow")


class StepType(StrEnum):
    """Kind of a step in an execution trajectory."""

    NODE = "node"
    TOOL = "tool"
    MESSAGE = "message"
    CONDITIONAL = "conditional"


class ToolCall(BaseModel):
    """A tool call: expected in an eval case, or captured from a run."""

    model_config = _KEEP_UNKNOWN

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    call_id: str | None = None
    result: Any | None = None

    def matches(
        self, other: ToolCall, check_args: bool = True, check_call_id: bool = False
    ) -> bool:
        """Same tool name, (when ``check_args``) equal arguments, and (when
        ``check_call_id``) the same ``call_id``; 10xGraph's signature and defaults.

        ``other`` is the expected call. One named without arguments
        (``ToolCall(name="get_weather")``) accepts any arguments: "name only, args
        not checked", as the eval-set format defines it (and 10xGraph does).
        Arguments are compared literally here, as in 10xGraph; the trajectory
        criterion also reads argument matchers (see
        :mod:`~tenxeval_tui.evaluation.dataset.arg_matchers`).
        """
        if self.name != other.name:
            return False
        if check_args and other.args and self.args != other.args:
            return False
        return not check_call_id or self.call_id == other.call_id


class TrajectoryStep(BaseModel):
    """One step (a node visit or a tool call) of what the agent did, in order."""

    model_config = _KEEP_UNKNOWN
    __setattr__ = extra_on_demand  # instances are built lean (see evaluation/lean.py)

    step_type: StepType
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    timestamp: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def node(cls, name: str, timestamp: float | None = None, **metadata: Any) -> TrajectoryStep:
        """A node visit; keyword arguments become its ``metadata``."""
        return cls(step_type=StepType.NODE, name=name, timestamp=timestamp, metadata=metadata)

    @classmethod
    def tool(
        cls,
        name: str,
        args: dict[str, Any] | None = None,
        timestamp: float | None = None,
        **metadata: Any,
    ) -> TrajectoryStep:
        """A tool call; keyword arguments become its ``metadata``."""
        return cls(
            step_type=StepType.TOOL,
            name=name,
            args=dict(args or {}),
            timestamp=timestamp,
            metadata=metadata,
        )


class MessageContent(BaseModel):
    """A simplified chat message: the user turn or the expected reply of an invocation."""

    model_config = _KEEP_UNKNOWN

    role: str
    content: str | list[dict[str, Any]]
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_genai_content(cls, data: Any) -> Any:
        return content_from_parts(data)  # Google ADK's messages

    @classmethod
    def user(cls, text: str) -> MessageContent:
        """A ``role="user"`` message."""
        return cls(role="user", content=text)

    @classmethod
    def assistant(cls, text: str) -> MessageContent:
        """A ``role="assistant"`` message."""
        return cls(role="assistant", content=text)

    def get_text(self) -> str:
        """The message as plain text; text blocks of a list content are joined with spaces."""
        if isinstance(self.content, str):
            return self.content
        parts: list[str] = []
        for block in self.content:
            text = block.get("text")
            if isinstance(text, str) and block.get("type", "text") == "text":
                parts.append(text)
        return " ".join(parts)


class Invocation(BaseModel):
    """One turn of a case: the user message and what is expected of the agent."""

    model_config = _KEEP_UNKNOWN

    invocation_id: str = Field(default_factory=lambda: str(uuid.uuid4()))
    user_content: MessageContent
    expected_tool_trajectory: list[ToolCall] = Field(default_factory=list)
    expected_node_order: list[str] = Field(default_factory=list)
    expected_intermediate_responses: list[MessageContent] = Field(default_factory=list)
    expected_final_response: MessageContent | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_adk(cls, data: Any) -> Any:
        return invocation_from_adk(data)  # Google ADK's expectations

    @classmethod
    def simple(
        cls,
        user_query: str,
        expected_response: str | None = None,
        expected_tools: list[ToolCall] | None = None,
        expected_node_order: list[str] | None = None,
    ) -> Invocation:
        """One turn from plain values; no (or an empty) expected reply leaves
        ``expected_final_response`` ``None``."""
        return cls(
            user_content=MessageContent.user(user_query),
            expected_final_response=(
                MessageContent.assistant(expected_response) if expected_response else None
            ),
            expected_tool_trajectory=list(expected_tools or []),
            expected_node_order=list(expected_node_order or []),
        )


class SessionInput(BaseModel):
    """Initial session of a case: who the user is and the state the agent starts from."""

    model_config = _KEEP_UNKNOWN

    app_name: str = ""
    user_id: str = "test_user"
    state: dict[str, Any] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)


ExpectedTools = Sequence[ToolCall | str] | None


def to_tool_calls(tools: ExpectedTools) -> list[ToolCall]:
    """Normalise expected tools given as names or ``ToolCall``s."""
    return [ToolCall(name=t) if isinstance(t, str) else t for t in tools or []]


class EvalCase(BaseModel):
    """One test case: a conversation of one or more turns with its expectations."""

    model_config = _KEEP_UNKNOWN

    eval_id: str = Field(default_factory=lambda: str(uuid.uuid4()))
    name: str = ""
    description: str = ""
    conversation: list[Invocation] = Field(default_factory=list)
    session_input: SessionInput = Field(default_factory=SessionInput)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _readable_expectations(self) -> EvalCase:
        # Matchers and rules that cannot be read are refused here; a file's loading also
        # places each exactly (expectation_problems), naming this error's place only.
        found = first_expectation_problem(
            ([call.args for call in turn.expected_tool_trajectory] for turn in self.conversation),
            self.metadata,
        )
        if found:
            where, message = found
            raise PydanticCustomError(
                "located_by_checks", "{where}: {message}", {"where": where, "message": message}
            )
        return self

    @classmethod
    def single_turn(
        cls,
        eval_id: str,
        user_query: str,
        expected_response: str | None = None,
        expected_tools: ExpectedTools = None,
        expected_node_order: list[str] | None = None,
        name: str = "",
        description: str = "",
        session_input: SessionInput | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> EvalCase:
        """A case with one user turn."""
        return cls.multi_turn(
            eval_id=eval_id,
            conversation=[(user_query, expected_response)],
            expected_tools=expected_tools,
            expected_node_order=expected_node_order,
            name=name,
            description=description,
            session_input=session_input,
            tags=tags,
            metadata=metadata,
        )

    @classmethod
    def multi_turn(
        cls,
        eval_id: str,
        conversation: Sequence[tuple[str, str | None]],
        expected_tools: ExpectedTools = None,
        name: str = "",
        description: str = "",
        expected_node_order: list[str] | None = None,
        session_input: SessionInput | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> EvalCase:
        """A case of several ``(user, expected reply)`` turns.

        ``expected_tools`` and ``expected_node_order`` are attached to the first
        turn; trajectory criteria concatenate the expectations of every turn. The
        first five parameters are in 10xGraph's order.
        """
        invocations = [
            Invocation(
                user_content=MessageContent.user(user),
                expected_final_response=(
                    MessageContent.assistant(reply) if reply is not None else None
                ),
            )
            for user, reply in conversation
        ]
        if invocations:
            invocations[0].expected_tool_trajectory = to_tool_calls(expected_tools)
            invocations[0].expected_node_order = list(expected_node_order or [])
        return cls(
            eval_id=eval_id,
            name=name,
            description=description,
            conversation=invocations,
            session_input=session_input or SessionInput(),
            tags=list(tags or []),
            metadata=dict(metadata or {}),
        )

    def get_expected_tool_trajectory(self) -> list[ToolCall]:
        """Expected tool calls of every turn, concatenated in turn order."""
        return [call for inv in self.conversation for call in inv.expected_tool_trajectory]

    def get_expected_node_order(self) -> list[str]:
        """Expected node order of every turn, concatenated in turn order."""
        return [node for inv in self.conversation for node in inv.expected_node_order]

    def get_final_expected_response(self) -> str | None:
        """Expected reply of the last turn that has one, as text (``None`` if no turn has one)."""
        for inv in reversed(self.conversation):
            if inv.expected_final_response is not None:
                return inv.expected_final_response.get_text()
        return None

    def get_user_queries(self) -> list[str]:
        """The user message of each turn, as text."""
        return [inv.user_content.get_text() for inv in self.conversation]


class EvalSet(BaseModel):
    """A named collection of eval cases, stored as one ``.evalset.json`` file."""

    model_config = _KEEP_UNKNOWN

    eval_set_id: str = Field(default_factory=lambda: str(uuid.uuid4()))
    name: str = ""
    description: str = ""
    eval_cases: list[EvalCase] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _unique_eval_ids(self) -> EvalSet:
        seen: dict[str, int] = {}
        for index, case in enumerate(self.eval_cases):
            if case.eval_id in seen:
                raise PydanticCustomError(
                    "duplicate_eval_id",
                    "duplicate eval_id {eval_id!r} (also used by eval_cases[{first}])",
                    {"eval_id": case.eval_id, "first": seen[case.eval_id], "index": index},
                )
            seen[case.eval_id] = index
        return self

    def __len__(self) -> int:
        return len(self.eval_cases)

    def __iter__(self) -> Iterator[EvalCase]:  # type: ignore[override]
        return iter(self.eval_cases)

    def add_case(self, case: EvalCase) -> None:
        """Append a case (its ``eval_id`` must be new to the set)."""
        if self.get_case(case.eval_id) is not None:
            raise ValueError(f"duplicate eval_id {case.eval_id!r} in eval set {self.eval_set_id!r}")
        self.eval_cases.append(case)

    def get_case(self, eval_id: str) -> EvalCase | None:
        """The case with this ``eval_id``, or ``None``."""
        return next((c for c in self.eval_cases if c.eval_id == eval_id), None)

    def filter_by_tags(self, tags: list[str]) -> list[EvalCase]:
        """Cases that carry every one of ``tags``."""
        return CaseSelection(tags=tuple(tags)).cases(self.eval_cases)

    @classmethod
    def from_file(cls, path: str | Path) -> EvalSet:
        """Load an eval set file.

        Raises ``FileNotFoundError`` naming the path when it does not exist, and
        :class:`EvalFileError` (a ``ValueError``) naming file, line, column, the
        JSON path of the field and the problem when it cannot be loaded.
        """
        return read_json_model(
            cls, Path(path), prepare=_prepare_parsed, extra_checks=_file_problems
        )

    @classmethod
    def from_data(cls, data: Any) -> EvalSet:
        """Validate parsed JSON as a file would be loaded (bare-string messages accepted).

        ``data`` itself is never changed. Raises pydantic's ``ValidationError``.
        """
        try:
            return cls.model_validate(data)
        except ValidationError:
            copied = copy.deepcopy(data)
            if not _prepare_parsed(copied):
                raise
        return cls.model_validate(copied)

    def to_json(self, indent: int | None = 2) -> str:
        """The eval set as JSON text, in 10xGraph's shape."""
        return self.model_dump_json(indent=indent)

    def to_file(self, path: str | Path, indent: int | None = 2) -> None:
        """Write the eval set atomically (temporary file, then rename)."""
        atomic_write_text(Path(path), self.to_json(indent) + "\n")

    def save(self, path: str | Path) -> None:
        """Alias of :meth:`to_file`."""
        self.to_file(path)


def _expand_plain_messages(data: Any) -> bool:
    """Turn messages written as bare strings (hand-written files) into message objects.

    Done on the parsed JSON rather than by a pydantic "before" validator, which
    would slow the loading of every file several times over. Returns whether
    anything changed.
    """
    changed = False
    cases = data.get("eval_cases") if isinstance(data, dict) else None
    for case in cases if isinstance(cases, list) else []:
        turns = case.get("conversation") if isinstance(case, dict) else None
        for turn in turns if isinstance(turns, list) else []:
            if not isinstance(turn, dict):
                continue
            for key, role in (("user_content", "user"), ("expected_final_response", "assistant")):
                if isinstance(turn.get(key), str):
                    turn[key] = {"role": role, "content": turn[key]}
                    changed = True
    return changed


def _prepare_parsed(data: Any) -> bool:
    """What a file that does not load as it is gets before it is validated again: bare
    string messages expanded, ADK's ``null``s for unset fields removed."""
    expanded = _expand_plain_messages(data)
    return drop_adk_nulls(data) or expanded


def _file_problems(data: Any) -> list[tuple[list[str | int], str]]:
    """What an eval set file's models cannot place exactly: duplicate ids, unreadable
    matchers and rules."""
    return _duplicate_id_problems(data) + expectation_problems(data)


def _duplicate_id_problems(data: Any) -> list[tuple[list[str | int], str]]:
    if not isinstance(data, dict) or not isinstance(data.get("eval_cases"), list):
        return []
    seen: dict[str, int] = {}
    found: list[tuple[list[str | int], str]] = []
    for index, case in enumerate(data["eval_cases"]):
        eval_id = case.get("eval_id") if isinstance(case, dict) else None
        if not isinstance(eval_id, str):
            continue
        if eval_id in seen:
            found.append(
                (
                    ["eval_cases", index, "eval_id"],
                    f"duplicate eval_id {eval_id!r} (also used by eval_cases[{seen[eval_id]}])",
                )
            )
        else:
            seen[eval_id] = index
    return found


def validate_eval_set_file(path: str | Path) -> list[Problem]:
    """Every problem of an eval set file (empty when it loads), not just the first."""
    try:
        EvalSet.from_file(path)
    except FileNotFoundError:
        return [Problem(path=str(path), message="file not found")]
    except EvalFileError as exc:
        return exc.problems
    return []


_CHECK_CHUNK = 100
"""Cases validated per pydantic call by :func:`check_parsed_eval_set` (a few ms each)."""


@cache
def _case_list_adapter() -> TypeAdapter[list[EvalCase]]:
    return TypeAdapter(list[EvalCase])


def _parsed_set_is_valid(data: Any) -> bool:
    """Whether parsed JSON validates as an :class:`EvalSet` as it stands (no bare-string
    messages), validating its cases a chunk at a time."""
    cases = data.get("eval_cases") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        try:
            EvalSet.model_validate(data)
        except ValidationError:
            return False
        return True
    adapter = _case_list_adapter()
    try:
        EvalSet.model_validate({**data, "eval_cases": []})
        for start in range(0, len(cases), _CHECK_CHUNK):
            adapter.validate_python(cases[start : start + _CHECK_CHUNK])
    except ValidationError:
        return False
    return not _duplicate_id_problems(data)


def check_parsed_eval_set(path: str | Path, data: Any) -> list[Problem]:
    """Every problem of the eval set file ``path``, whose parsed JSON is ``data``: the
    same answer as :func:`validate_eval_set_file` for that text.

    Made for a thread beside a UI: pydantic holds the GIL for the whole of one call
    (half a second for 10,000 cases), so the cases are validated a chunk at a time and
    the UI thread gets its turns in between. Only when something is wrong is the file
    read and validated whole, to name each problem with its line and column.
    """
    if _parsed_set_is_valid(data):
        return []
    return validate_eval_set_file(path)


__all__ = [
    "EvalCase",
    "EvalSet",
    "Invocation",
    "MessageContent",
    "SessionInput",
    "StepType",
    "ToolCall",
    "TrajectoryStep",
    "check_parsed_eval_set",
    "to_tool_calls",
    "validate_eval_set_file",
]
