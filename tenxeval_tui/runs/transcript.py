"""A case as a transcript: the user's message, each model step with its reply, each tool
call with its arguments and result, the judges' verdicts, the expected reply (no UI import).

Two sources make the same blocks: a finished case's :class:`EvalCaseResult` (a report's,
:func:`result_transcript`) and a running case's events as they arrive
(:class:`LiveTranscript`, kept by the run view's live state). The blocks hold the text as
it came (untrusted): whoever shows them makes it inert. This module is in ``runs`` because
the live state is; the report browser (UI) imports it as well.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, ToolCall, TrajectoryStep
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.runs.event_lines import call_text, mode_mark

LIVE_TEXT_LIMIT = 2_000
"""Longest body of one live block (the report keeps everything)."""
LIVE_BLOCK_LIMIT = 2_000
"""Blocks a running case's transcript keeps (the last ones; the report keeps all)."""


class BlockKind(StrEnum):
    """What a transcript block is."""

    USER = "user"
    MODEL = "model"
    TOOL = "tool"
    REPLY = "reply"
    EXPECTED = "expected"
    VERDICT = "verdict"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class TranscriptBlock:
    """One block: a heading (``MAIN``, ``get_weather(city="Oslo")``...) and its text."""

    kind: BlockKind
    title: str
    body: str = ""
    failed: bool = False
    """A tool call that failed, a verdict that did not pass, an error."""


def _clip(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "… (the rest is in the report)"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    try:
        return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def model_block(
    node: str, text: str, calls: Sequence[str] = (), limit: int | None = None
) -> TranscriptBlock:
    """A model step: its reply, and the tools it asked for."""
    body = _clip(text, limit)
    if calls:
        body += ("\n" if body else "") + "→ calls " + ", ".join(calls)
    return TranscriptBlock(BlockKind.MODEL, node, body)


def tool_block(
    name: str,
    args: Any,
    result: Any,
    error: Any = None,
    limit: int | None = None,
    mode: Any = None,
) -> TranscriptBlock:
    """A tool call with its arguments, and its result (or its error); ``mode``: how a run
    that controls tools answered it (shown after the call: `` · replayed``)."""
    title = call_text(name, args) + mode_mark({"tool_mode": mode})
    if error:
        return TranscriptBlock(BlockKind.TOOL, title, "✗ " + _clip(str(error), limit), failed=True)
    return TranscriptBlock(
        BlockKind.TOOL,
        title,
        "→ " + (_clip(_shown(result), limit) if result is not None else "(no result recorded)"),
    )


def verdict_block(criterion: CriterionResult) -> TranscriptBlock:
    """A criterion's verdict: score against threshold, and its explanation (or error)."""
    mark = "✓ passed" if criterion.passed else "✗ failed"
    title = f"{criterion.criterion}  {criterion.score:.2f} / {criterion.threshold:.2f}  {mark}"
    body = criterion.error or criterion.reason or ""
    return TranscriptBlock(BlockKind.VERDICT, title, body, failed=not criterion.passed)


def ending_blocks(result: EvalCaseResult, expected: str | None) -> list[TranscriptBlock]:
    """What closes a transcript: the case's error, the expected reply, the verdicts."""
    blocks: list[TranscriptBlock] = []
    if result.error:
        blocks.append(TranscriptBlock(BlockKind.ERROR, "error", result.error, failed=True))
    if expected is not None:
        blocks.append(TranscriptBlock(BlockKind.EXPECTED, "expected reply", expected))
    blocks.extend(verdict_block(c) for c in result.criterion_results)
    return blocks


def _expected_in(result: EvalCaseResult) -> str | None:
    """The expected reply a criterion recorded in its details (``expected_response``)."""
    for criterion in result.criterion_results:
        expected = criterion.details.get("expected_response")
        if isinstance(expected, str):
            return expected
    return None


def _turn_slices(result: EvalCaseResult) -> list[tuple[str, str, list[TrajectoryStep]]]:
    """``(user message, reply, trajectory steps)`` of each turn."""
    steps = list(result.actual_trajectory)
    turns = result.turn_results
    if not turns:
        users = [str(m.get("content") or "") for m in result.messages if m.get("role") == "user"]
        return [("\n".join(users), result.actual_response, steps)]
    slices = []
    start = 0
    for i, turn in enumerate(turns):
        count = turn.get("trajectory_steps")
        end = start + count if isinstance(count, int) and i < len(turns) - 1 else len(steps)
        user = str(turn.get("user_content") or turn.get("user_input") or "")
        reply = str(turn.get("response") or turn.get("agent_response") or "")
        slices.append((user, reply, steps[start:end]))
        start = end
    return slices


def result_transcript(result: EvalCaseResult, expected: str | None = None) -> list[TranscriptBlock]:
    """The transcript of a finished case (``expected``: its expected reply, if known).

    Each turn: the user's message, then the steps in the order they ran (a model node's
    reply from the result's ``node_responses``, a tool call with the result recorded in
    ``actual_tool_calls``), then the turn's reply when no model step said it.
    """
    models: dict[tuple[str, float], deque[dict[str, Any]]] = {}
    for response in result.node_responses:
        key = (str(response.get("node_name", "")), float(response.get("timestamp") or 0.0))
        models.setdefault(key, deque()).append(response)
    calls: Iterator[ToolCall] = iter(result.actual_tool_calls)
    blocks: list[TranscriptBlock] = []
    for user, reply, steps in _turn_slices(result):
        if user:
            blocks.append(TranscriptBlock(BlockKind.USER, "user", user))
        last_text = ""
        for step in steps:
            if step.step_type == "tool":
                call = next(calls, None)
                result_value = call.result if call else None
                mode = step.metadata.get("tool_mode")
                blocks.append(tool_block(step.name, step.args, result_value, mode=mode))
                continue
            found = models.get((step.name, float(step.timestamp or 0.0)))
            if not found:
                continue  # a node that is not a model step (a tool node, a router)
            response = found.popleft()
            text = str(response.get("response_text") or "")
            names = [str(n) for n in response.get("tool_call_names") or []]
            blocks.append(model_block(step.name, text, names))
            last_text = text or last_text
        if reply and reply != last_text:
            blocks.append(TranscriptBlock(BlockKind.REPLY, "reply", reply))
    return blocks + ending_blocks(result, expected)


class LiveTranscript(Sequence[TranscriptBlock]):
    """A running case's transcript, made from its events as they arrive.

    It keeps the last :data:`LIVE_BLOCK_LIMIT` blocks, each body clipped to
    :data:`LIVE_TEXT_LIMIT` characters; :attr:`dropped` counts those left out.
    """

    __slots__ = ("_blocks", "_last_text", "_queries", "dropped", "expected", "version")

    def __init__(self) -> None:
        self._blocks: deque[TranscriptBlock] = deque(maxlen=LIVE_BLOCK_LIMIT)
        self._queries: list[str] = []
        self._last_text = ""
        self.expected: str | None = None
        self.dropped = 0
        self.version = 0
        """Grows with each change (a view shows the transcript anew when it moved)."""

    def _add(self, block: TranscriptBlock, prefix: str = "") -> None:
        if prefix:
            block = TranscriptBlock(block.kind, prefix + block.title, block.body, block.failed)
        if len(self._blocks) == self._blocks.maxlen:
            self.dropped += 1
        self._blocks.append(block)
        self.version += 1

    def start(self, case: EvalCase, prefix: str = "") -> None:
        """The case (or one repeat of it) starts: its first user message."""
        self._queries = case.get_user_queries()
        self.expected = case.get_final_expected_response()
        if self._queries and self._queries[0]:
            self._add(TranscriptBlock(BlockKind.USER, "user", self._queries[0]), prefix)

    def add_event(self, event: EventModel, prefix: str = "") -> None:
        """Add what ``event`` says (a model step, a tool call's end, a turn's reply...)."""
        data = event.data
        limit = LIVE_TEXT_LIMIT
        if event.event == Event.NODE_EXECUTION and not data.get("visit_only"):
            text = str(data.get("response_text") or "")
            names = [str(n) for n in data.get("tool_call_names") or []]
            self._add(model_block(event.node_name, text, names, limit), prefix)
            self._last_text = text or self._last_text
        elif event.event == Event.TOOL_EXECUTION and event.event_type != EventType.START:
            name = str(data.get("function_name") or event.node_name)
            block = tool_block(
                name,
                data.get("args"),
                data.get("result"),
                data.get("error"),
                limit,
                data.get("tool_mode"),
            )
            self._add(block, prefix)
        elif event.event == Event.GRAPH_EXECUTION:
            self._graph_event(event, prefix)

    def _graph_event(self, event: EventModel, prefix: str) -> None:
        data = event.data
        if event.event_type == EventType.ERROR or data.get("error"):
            error = _clip(str(data.get("error") or ""), LIVE_TEXT_LIMIT)
            self._add(TranscriptBlock(BlockKind.ERROR, "error", error, failed=True), prefix)
        elif data.get("simulated_user"):
            message = str(data.get("user_message") or "")
            turn = data.get("turn_index")
            if (
                isinstance(turn, int)
                and turn < len(self._queries)
                and self._queries[turn] == message
            ):
                return  # the case's own message, shown when it started
            user = TranscriptBlock(BlockKind.USER, "user", _clip(message, LIVE_TEXT_LIMIT))
            self._add(user, prefix)
        elif event.event_type == EventType.END:
            reply = str(data.get("response_text") or "")
            if reply and reply != self._last_text:
                self._add(TranscriptBlock(BlockKind.REPLY, "reply", _clip(reply, LIVE_TEXT_LIMIT)))
            self._last_text = ""
            turn = data.get("turn_index")
            following = turn + 1 if isinstance(turn, int) else len(self._queries)
            if following < len(self._queries):
                user = TranscriptBlock(BlockKind.USER, "user", self._queries[following])
                self._add(user, prefix)

    def finish(self, result: EvalCaseResult) -> None:
        """The case ended: its error, expected reply and verdicts close the transcript."""
        expected = self.expected if self.expected is not None else _expected_in(result)
        for block in ending_blocks(result, expected):
            self._add(block)

    def __len__(self) -> int:
        return len(self._blocks)

    def __getitem__(self, index: int) -> TranscriptBlock:  # type: ignore[override]
        return self._blocks[index]

    def __iter__(self) -> Iterator[TranscriptBlock]:
        return iter(self._blocks)


__all__ = [
    "LIVE_BLOCK_LIMIT",
    "LIVE_TEXT_LIMIT",
    "BlockKind",
    "LiveTranscript",
    "TranscriptBlock",
    "ending_blocks",
    "model_block",
    "result_transcript",
    "tool_block",
    "verdict_block",
]
