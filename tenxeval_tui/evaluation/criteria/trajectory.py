"""Trajectory criteria: which tools the agent called, and which nodes it ran, in what order.

All three compare an actual sequence with an expected one under a
:class:`~tenxeval_tui.evaluation.config.MatchType`. With ``n`` expected items
and ``m`` actual items (``n > 0``), "matching" meaning equal (tools: same name,
and same arguments when ``check_args``):

``exact``
    all or nothing, as 10xGraph's docs state ("order and count must match
    exactly, no extra tools allowed"): 1.0 for the same items in the same order
    with nothing extra, else 0.0. (10xGraph 0.10.3 compares only the first ``n``
    actual items, so trailing extra calls still score 1.0 there.)
    With ``CriterionConfig(partial_credit=True)`` (ours) ``exact`` gives
    positional partial credit instead: positions ``i`` where ``actual[i]``
    matches ``expected[i]``, divided by ``max(n, m)``, so every missing, wrong
    or extra item costs its share; the threshold decides what passes.
``in_order``
    the longest common subsequence of the two, divided by ``n``: 1.0 exactly
    when the expected items appear in order, extras anywhere allowed.
``any_order``
    the size of the multiset intersection, divided by ``n``: 1.0 exactly when
    every expected item appears (each as often as expected), in any order.

For the same inputs ``exact <= in_order <= any_order`` always holds (with or
without partial credit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import MatchType
from tenxeval_tui.evaluation.criteria.base import SyncCriterion, register_criterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, ToolCall
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult


def _eq(a: Any, b: Any) -> bool:
    return bool(a == b)


def positional_score[T](
    actual: Sequence[T], expected: Sequence[T], same: Callable[[T, T], bool] = _eq
) -> float:
    """Positional matches over ``max(len(actual), len(expected))``; two empty lists score 1.0."""
    longest = max(len(actual), len(expected))
    if longest == 0:
        return 1.0
    hits = sum(1 for a, e in zip(actual, expected, strict=False) if same(a, e))
    return hits / longest


def exact_score[T](
    actual: Sequence[T], expected: Sequence[T], same: Callable[[T, T], bool] = _eq
) -> float:
    """1.0 when both have the same length and match position by position, else 0.0."""
    return 1.0 if positional_score(actual, expected, same) == 1.0 else 0.0


def in_order_score[T](
    actual: Sequence[T], expected: Sequence[T], same: Callable[[T, T], bool] = _eq
) -> float:
    """Longest common subsequence over ``len(expected)``; nothing expected scores 1.0."""
    if not expected:
        return 1.0
    # Classic LCS table, one row at a time.
    previous = [0] * (len(expected) + 1)
    for a in actual:
        current = [0]
        for j, e in enumerate(expected):
            current.append(previous[j] + 1 if same(a, e) else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1] / len(expected)


def any_order_score[T](
    actual: Sequence[T], expected: Sequence[T], same: Callable[[T, T], bool] = _eq
) -> float:
    """Multiset intersection over ``len(expected)``; nothing expected scores 1.0.

    ``same`` must be an equivalence relation (it is for names and for
    name-plus-arguments), which makes greedy pairing optimal.
    """
    if not expected:
        return 1.0
    remaining = list(actual)
    hits = 0
    for e in expected:
        for index, a in enumerate(remaining):
            if same(a, e):
                hits += 1
                del remaining[index]
                break
    return hits / len(expected)


_SCORERS: dict[MatchType, Callable[..., float]] = {
    MatchType.EXACT: exact_score,
    MatchType.IN_ORDER: in_order_score,
    MatchType.ANY_ORDER: any_order_score,
}


def match_score[T](
    match_type: MatchType,
    actual: Sequence[T],
    expected: Sequence[T],
    same: Callable[[T, T], bool] = _eq,
    *,
    partial_credit: bool = False,
) -> float:
    """The score of ``actual`` against ``expected`` under ``match_type`` (see module doc)."""
    if partial_credit and MatchType(match_type) is MatchType.EXACT:
        return positional_score(actual, expected, same)
    return _SCORERS[MatchType(match_type)](actual, expected, same)


# The name 10xGraph gives its graph's start event, which its collector records as a node.
START_NODE = "__start__"


def _call_dump(call: ToolCall) -> dict[str, Any]:
    return {"name": call.name, "args": call.args}


@register_criterion
class TrajectoryMatchCriterion(SyncCriterion):
    """``tool_trajectory_avg_score``: the tool calls made against the expected ones.

    Expected calls are those of every turn, concatenated
    (``EvalCase.get_expected_tool_trajectory()``); actual calls are
    ``ExecutionResult.tool_calls`` accumulated over the conversation. The score
    is :func:`match_score` under ``config.match_type`` (default ``exact``); two
    calls match on the tool name, and also on equal ``args`` when
    ``config.check_args`` is on (off by default); an expected call given by name
    only accepts any arguments even then (:meth:`ToolCall.matches`).

    Nothing expected: an empty expected trajectory means "no tool should be
    called" under ``exact`` (1.0 when none was, else 0.0) and is trivially met
    under ``in_order`` / ``any_order`` (1.0), as in 10xGraph.
    """

    name = "tool_trajectory_avg_score"
    description = "Tool calls made against the expected trajectory"

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        wanted = expected.get_expected_tool_trajectory()
        made = list(actual.tool_calls)
        check_args = self.config.check_args
        match_type = MatchType(self.config.match_type)

        def same(a: ToolCall, e: ToolCall) -> bool:
            return a.matches(e, check_args=check_args)

        partial = self.config.partial_credit
        score = match_score(match_type, made, wanted, same, partial_credit=partial)
        expected_names = [c.name for c in wanted]
        actual_names = [c.name for c in made]
        return self.result(
            score,
            details={
                "reason": (
                    f"{match_type.value} match{' with args' if check_args else ''}: "
                    f"expected {expected_names}, got {actual_names}"
                ),
                "match_type": match_type.value,
                "check_args": check_args,
                "expected_trajectory": [_call_dump(c) for c in wanted],
                "actual_trajectory": [_call_dump(c) for c in made],
            },
        )


@register_criterion
class ToolNameMatchCriterion(SyncCriterion):
    """``tool_name_match_score``: the expected tool names were called, arguments ignored.

    Score: the ``any_order`` score on tool names alone: how many of the
    expected names (all turns, with multiplicity) appear among the called
    names, divided by the number expected. Extra calls cost nothing.

    Nothing expected: 1.0 when no tool was called, 0.5 when some were (as
    10xGraph's docs and 0.10.3 score it: the agent used tools where the case
    expects none, which fails the default threshold of 1.0).
    """

    name = "tool_name_match_score"
    description = "Expected tool names were called (any order, args ignored)"

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        wanted = [c.name for c in expected.get_expected_tool_trajectory()]
        made = actual.get_tool_names()
        if wanted:
            score = any_order_score(made, wanted)
            remaining = list(made)
            missing = []
            for name in wanted:
                if name in remaining:
                    remaining.remove(name)
                else:
                    missing.append(name)
            reason = f"missing {missing}" if missing else "every expected tool was called"
        else:
            score = 0.5 if made else 1.0
            missing = []
            reason = f"no tools expected, called {made}" if made else "no tools expected or called"
        return self.result(
            score,
            details={
                "reason": reason,
                "expected_names": wanted,
                "actual_names": made,
                "missing": missing,
            },
        )


@register_criterion
class NodeOrderMatchCriterion(SyncCriterion):
    """``node_order_score``: the nodes the graph ran against the expected node order.

    Expected: ``EvalCase.get_expected_node_order()`` (every turn, concatenated);
    actual: ``ExecutionResult.node_visits`` (tool nodes included, as the docs
    show: ``["MAIN", "TOOL", "MAIN"]``). The score is :func:`match_score` under
    ``config.match_type`` (default ``exact``).

    10xGraph 0.10.3 records node order differently: its graph's ``__start__``
    event, then the model nodes only (``["__start__", "MAIN", "MAIN"]`` for the
    same run). So that an order written by observing 10xGraph still holds, an
    expected order naming ``__start__`` is also scored against that view: the
    ``__start__`` entries left out of the expected order, and the actual visits
    without the tool nodes (the nodes that made no model call, i.e. have no
    node response). The better of the two scores counts, and
    ``details["compared_with"]`` says which view it was.

    Nothing expected: 1.0 with ``details["note"]`` saying so, whatever the
    match type (every run visits nodes, so an empty list is no expectation).
    """

    name = "node_order_score"
    description = "Nodes visited against the expected node order"

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        wanted = expected.get_expected_node_order()
        visited = list(actual.node_visits)
        match_type = MatchType(self.config.match_type)
        details: dict[str, Any] = {
            "match_type": match_type.value,
            "expected_node_order": wanted,
            "actual_node_order": visited,
        }
        if not wanted:
            details["note"] = "no expectation: the case has no expected node order"
            details["reason"] = details["note"]
            return self.result(1.0, details=details)
        partial = self.config.partial_credit
        score = match_score(match_type, visited, wanted, partial_credit=partial)
        details["compared_with"] = "node_visits"
        if START_NODE in wanted and score < 1.0:
            model_nodes = {r.node_name for r in actual.node_responses}
            their_view = [n for n in visited if n in model_nodes and n != START_NODE]
            their_wanted = [n for n in wanted if n != START_NODE]
            alternative = match_score(match_type, their_view, their_wanted, partial_credit=partial)
            if alternative > score:
                score = alternative
                details["compared_with"] = "model nodes (10xGraph's __start__ view)"
                details["compared_node_order"] = their_view
        details["reason"] = f"{match_type.value} match: expected {wanted}, got {visited}"
        return self.result(score, details=details)
