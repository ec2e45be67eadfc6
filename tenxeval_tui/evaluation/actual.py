"""Accepting the actual: what an agent did in a run, written as a case's expectations.

:func:`actual_as_expected` is the core of "accept actual" (the workbench's key, to
be written through the editor's document model, which keeps the file's bytes and
the undo history): it returns a copy of the case whose chosen expectations are,
turn by turn, what the run recorded:

- ``"response"``: each turn's reply becomes the content of its ``expected_final_response``
  (its role, ``metadata`` and any other key are kept);
- ``"tools"``: each turn's tool calls (name and arguments; results and call ids
  are not expectations) become its ``expected_tool_trajectory``; an expected call
  written with argument matchers that the call it pairs with still fits is kept as
  written (accepting never trades ``{"$regex": ...}`` for this run's one value);
- ``"nodes"``: each turn's node visits become its ``expected_node_order``.

Everything else of the case (ids, user messages, session, tags, metadata, other
parts) is kept. A run that errored, or ran fewer turns than the case has, cannot
be accepted: :class:`NotAcceptable` says why. For a case with repeats, pass the
repeat to accept (``result.repeat_results[i]``); the top level is one of them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.criteria.call_matching import match_calls
from tenxeval_tui.evaluation.dataset.arg_matchers import MatcherError, uses_matchers
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, MessageContent, ToolCall
from tenxeval_tui.evaluation.eval_result import EvalCaseResult

PARTS = ("response", "tools", "nodes")
"""What can be accepted, in the order a dialog would offer it."""


class NotAcceptable(ValueError):
    """A run whose actual behaviour cannot become the case's expectations (and why)."""


def actual_as_expected(
    case: EvalCase,
    result: EvalCaseResult,
    parts: Collection[str] = PARTS,
    *,
    with_args: bool = True,
) -> EvalCase:
    """A copy of ``case`` expecting, turn by turn, what ``result`` shows the agent did.

    ``parts`` chooses among :data:`PARTS`; ``with_args=False`` keeps only tool
    names (for cases whose arguments vary run to run).
    """
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown parts {sorted(unknown)}; choose among {', '.join(PARTS)}")
    if result.eval_id != case.eval_id:
        raise NotAcceptable(f"the result is of case {result.eval_id!r}, not {case.eval_id!r}")
    if result.is_error:
        raise NotAcceptable(f"case {case.eval_id!r}: the run errored ({result.error})")
    turns = result.turn_results
    if len(turns) < len(case.conversation):
        raise NotAcceptable(
            f"case {case.eval_id!r}: the run recorded {len(turns)} of the case's "
            f"{len(case.conversation)} turns"
        )
    accepted = case.model_copy(deep=True)
    for invocation, turn in zip(accepted.conversation, turns, strict=False):
        if "response" in parts:
            text = str(turn.get("agent_response", turn.get("response")) or "")
            old = invocation.expected_final_response
            invocation.expected_final_response = (  # only the reply: its metadata stays
                MessageContent.assistant(text)
                if old is None
                else old.model_copy(update={"content": text}, deep=True)
            )
        if "tools" in parts:
            made = [_expected_call(call, with_args) for call in turn.get("tool_calls") or []]
            invocation.expected_tool_trajectory = (
                _keeping_matchers(invocation.expected_tool_trajectory, made) if with_args else made
            )
        if "nodes" in parts:
            invocation.expected_node_order = [str(n) for n in turn.get("node_visits") or []]
    return accepted


def _keeping_matchers(before: list[ToolCall], made: list[ToolCall]) -> list[ToolCall]:
    """``made`` (the run's calls), each one that an expected call with matchers fitted
    replaced by that expected call (paired in order, as the trajectory criterion does)."""
    with_matchers = [call for call in before if uses_matchers(call.args)]
    if not with_matchers:
        return made
    try:
        paired = match_calls(before, made, MatchType.IN_ORDER, check_args=True)
    except MatcherError:
        return made  # matchers that cannot be read: the run's calls as they are
    kept = list(made)
    for outcome in paired.outcomes:
        expected = before[outcome.expected]
        if outcome.matched is not None and uses_matchers(expected.args):
            kept[outcome.matched] = expected.model_copy(deep=True)
    return kept


def _expected_call(call: Any, with_args: bool) -> ToolCall:
    data: dict[str, Any] = call if isinstance(call, dict) else {"name": str(call)}
    args = data.get("args") if with_args else None
    return ToolCall(
        name=str(data.get("name", "")), args=dict(args) if isinstance(args, dict) else {}
    )


__all__ = ["PARTS", "NotAcceptable", "actual_as_expected"]
