"""Trajectory criteria: which tools the agent called, and which nodes it ran, in what order.

All three compare an actual sequence with an expected one under a
:class:`~tenxeval_tui.evaluation.config.MatchType`. With ``n`` expected items
and ``m`` actual items (``n > 0``), "matching" meaning equal (tools: same name,
and, when ``check_args``, arguments equal or fitting the expected call's argument
matchers):

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
    every expected item appears (each as often as expected), in any order. (With
    argument matchers, the size of a maximum matching of expected to actual calls.)

For the same inputs ``exact <= in_order <= any_order`` always holds (with or
without partial credit).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig, MatchType
from tenxeval_tui.evaluation.criteria.base import SyncCriterion, register_criterion
from tenxeval_tui.evaluation.criteria.call_matching import CallsMatch, match_calls
from tenxeval_tui.evaluation.criteria.rule_checks import RuleFailure, rule_failures
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, ToolCall
from tenxeval_tui.evaluation.dataset.trajectory_rules import RULES_KEY, TrajectoryRules
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

    ``same`` must be an equivalence relation (it is for names and node names), which
    makes greedy pairing optimal. Tool calls with arguments are paired by
    :func:`~tenxeval_tui.evaluation.criteria.call_matching.match_calls` instead: an
    expected call by name only, or with argument matchers, matches calls that do not
    match each other.
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


MAX_REASON_LINES = 12
"""Lines of explanation a reason holds at most (the details hold every one)."""


def criterion_rules(config: CriterionConfig) -> TrajectoryRules:
    """The trajectory rules a criterion's options set."""
    return TrajectoryRules.build(
        forbidden_tools=config.forbidden_tools,
        max_calls=config.max_calls,
        min_calls=config.min_calls,
        max_steps=config.max_steps,
        before=config.before,
    )


def case_rules(rules: TrajectoryRules, case: EvalCase) -> TrajectoryRules:
    """The rules ``case`` is checked against: its ``metadata["trajectory_rules"]`` over
    ``rules`` (the criterion's). ``ValueError`` when the case's rules cannot be read."""
    written = case.metadata.get(RULES_KEY)
    return rules if written is None else TrajectoryRules.from_value(written).over(rules)


def _explanation(
    wanted: list[ToolCall],
    made: list[ToolCall],
    matched: CallsMatch,
    broken: list[RuleFailure],
    match_type: MatchType,
) -> list[str]:
    lines = [o.describe(wanted, made) for o in matched.outcomes if o.matched is None]
    if match_type is MatchType.EXACT and matched.unmatched:
        extra = ", ".join(f"call #{j + 1} {made[j].name}" for j in matched.unmatched[:10])
        more = f" and {len(matched.unmatched) - 10} more" if len(matched.unmatched) > 10 else ""
        lines.append(f"not expected: {extra}{more}")
    lines.extend(f"rule {failure.describe()}" for failure in broken)
    if len(lines) > MAX_REASON_LINES:
        left = len(lines) - MAX_REASON_LINES + 1
        lines = [*lines[: MAX_REASON_LINES - 1], f"... and {left} more (see the details)"]
    return lines


@register_criterion
class TrajectoryMatchCriterion(SyncCriterion):
    """``tool_trajectory_avg_score``: the tool calls made against the expected ones.

    Expected calls are those of every turn, concatenated
    (``EvalCase.get_expected_tool_trajectory()``); actual calls are
    ``ExecutionResult.tool_calls`` accumulated over the conversation. The score
    is that of the module docstring under ``config.match_type`` (default ``exact``); two
    calls match on the tool name, and also on their ``args`` when
    ``config.check_args`` is on (off by default): equal, or fitting the argument
    matchers the expected call holds (``{"$regex": "^Lon"}``..., see
    :mod:`~tenxeval_tui.evaluation.dataset.arg_matchers`), the keys of
    ``config.ignore_args`` left out at any depth. An expected call given by name
    only accepts any arguments even then. ``any_order`` pairs calls by a maximum
    matching, ``in_order`` by a longest common subsequence
    (:mod:`~tenxeval_tui.evaluation.criteria.call_matching`).

    Trajectory rules (``config.forbidden_tools``, ``max_calls``, ``min_calls``,
    ``max_steps``, ``before``, extended by the case's
    ``metadata["trajectory_rules"]``): a broken rule scores 0.0 whatever the match.

    Nothing expected: an empty expected trajectory means "no tool should be
    called" under ``exact`` (1.0 when none was, else 0.0) and is trivially met
    under ``in_order`` / ``any_order`` (1.0), as in 10xGraph.

    ``details``: ``matched_calls`` (for each expected call, the 0-based index of the
    actual call it matched, or ``None``), ``mismatches`` (each unmatched expected
    call, its ``closest`` actual call and the ``args`` that failed, naming the
    matcher), ``extra_calls`` (actual calls matching no expected one),
    ``rule_failures`` (rule, message, the call or step that broke it); the reason
    says the same in words, one line each. Matchers or case rules that cannot be
    read fail the criterion with an error naming them.
    """

    name = "tool_trajectory_avg_score"
    description = "Tool calls made against the expected trajectory"

    @functools.cached_property
    def rules(self) -> TrajectoryRules:
        """The rules of this criterion's options (a case's own add to them)."""
        return criterion_rules(self.config)

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        wanted = expected.get_expected_tool_trajectory()
        made = list(actual.tool_calls)
        config = self.config
        check_args = config.check_args
        match_type = config.match_type
        if not isinstance(match_type, MatchType):
            match_type = MatchType(match_type)
        details: dict[str, Any] = {
            "match_type": match_type.value,
            "check_args": check_args,
            "expected_trajectory": [_call_dump(c) for c in wanted],
            "actual_trajectory": [_call_dump(c) for c in made],
        }
        if config.ignore_args:
            details["ignore_args"] = list(config.ignore_args)
        if RULES_KEY in expected.metadata:
            details[RULES_KEY] = expected.metadata[RULES_KEY]
        try:
            rules = case_rules(self.rules, expected)
            matched = match_calls(
                wanted,
                made,
                match_type,
                check_args=check_args,
                ignore_args=config.ignore_args,
                partial_credit=config.partial_credit,
            )
        except ValueError as exc:  # matchers or rules that cannot be read
            return self.failure(f"case {expected.eval_id!r}: {exc}", details=details)
        broken = rule_failures(rules, made, actual.node_visits)
        head = (
            f"{match_type.value} match{' with args' if check_args else ''}: "
            f"expected {[c.name for c in wanted]}, got {[c.name for c in made]}"
        )
        lines = _explanation(wanted, made, matched, broken, match_type)
        details.update(
            reason="\n".join([head, *lines]),
            matched_calls=matched.matched_calls,
            mismatches=[o.to_json() for o in matched.outcomes if o.matched is None],
            extra_calls=matched.unmatched,
        )
        if not rules.empty:
            details["rule_failures"] = [failure.to_json() for failure in broken]
        return self.result(0.0 if broken else matched.score, details=details)


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
