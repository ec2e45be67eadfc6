"""Trajectory rules: what an agent's tool calls must respect, whatever calls are expected.

The rules, as criterion options of ``tool_trajectory_avg_score`` (``CriterionConfig``)
and per case in ``case.metadata["trajectory_rules"]`` (a free-form field, so a file
with rules still loads in 10xgraph 0.10.3, which ignores them):

``forbidden_tools``
    tools that must never be called: ``["delete_account"]``.
``max_calls`` / ``min_calls``
    bounds on calls: a number bounds all tool calls together (``"max_calls": 6``); an
    object bounds each tool it names, ``"*"`` standing for all calls together
    (``"max_calls": {"search": 2, "*": 6}``).
``max_steps``
    at most this many steps, a step being a node the agent ran
    (``ExecutionResult.node_visits``: each model turn, and each tool node of a
    10xGraph graph).
``before``
    ordering constraints without fixing the whole order: ``[["search", "book"]]``
    says no ``book`` call may come before the first ``search`` call (holds when
    ``book`` is never called; ``min_calls`` asks for calls).

A case's rules add to the criterion's: its forbidden tools and orderings are added,
its bounds replace the criterion's bounds for the same tool (or for all calls).
This module reads and checks the rules' shape; the trajectory criterion applies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tenxeval_tui.evaluation.dataset.arg_matchers import Found, format_arg_path

RULES_KEY = "trajectory_rules"
"""The ``case.metadata`` key holding a case's rules."""

ALL_CALLS = "*"
"""The key of a ``max_calls``/``min_calls`` object that bounds all tool calls together."""

RULE_NAMES = ("forbidden_tools", "max_calls", "min_calls", "max_steps", "before")


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _bounds_problems(name: str, value: Any) -> Found:
    if _count(value) or value is None:
        return []
    if not isinstance(value, dict):
        return [
            (
                [name],
                f"{name} takes a whole number >= 0 (all calls) or an object "
                '{"tool": number, "*": number}',
            )
        ]
    return [
        ([name, tool], f"{name} of {tool!r} must be a whole number >= 0, not {bound!r}")
        for tool, bound in value.items()
        if not _count(bound)
    ]


def _names_problems(path: list[str | int], value: Any, what: str) -> Found:
    if not isinstance(value, list):
        return [(path, f"{what} takes a list of tool names")]
    return [
        ([*path, i], "a tool name must be a non-empty string")
        for i, name in enumerate(value)
        if not isinstance(name, str) or not name
    ]


def _before_problems(value: Any) -> Found:
    if not isinstance(value, list):
        return [(["before"], 'before takes a list of pairs: [["first_tool", "then_tool"]]')]
    found: Found = []
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            found.append((["before", i], 'each ordering is a pair ["first_tool", "then_tool"]'))
            continue
        found.extend(_names_problems(["before", i], pair, "an ordering"))
        if pair[0] == pair[1]:
            found.append((["before", i], f"a tool cannot come before itself ({pair[0]!r})"))
    return found


def rules_problems(value: Any) -> Found:
    """Every problem of a case's ``trajectory_rules`` value: (path below it, message)."""
    if not isinstance(value, dict):
        return [([], f"trajectory_rules must be an object with any of {', '.join(RULE_NAMES)}")]
    found: Found = []
    for key in value:
        if key not in RULE_NAMES:
            found.append(([key], f"unknown rule {key!r} (rules: {', '.join(RULE_NAMES)})"))
    if "forbidden_tools" in value:
        found.extend(
            _names_problems(["forbidden_tools"], value["forbidden_tools"], "forbidden_tools")
        )
    for name in ("max_calls", "min_calls"):
        found.extend(_bounds_problems(name, value.get(name)))
    steps = value.get("max_steps")
    if steps is not None and not _count(steps):
        found.append((["max_steps"], f"max_steps must be a whole number >= 0, not {steps!r}"))
    if "before" in value:
        found.extend(_before_problems(value["before"]))
    return found


def _bounds(value: int | Mapping[str, int] | None) -> dict[str, int]:
    if value is None:
        return {}
    if isinstance(value, int):
        return {ALL_CALLS: value}
    return dict(value)


@dataclass(frozen=True, slots=True)
class TrajectoryRules:
    """The rules one case is checked against (see the module's docstring)."""

    forbidden_tools: tuple[str, ...] = ()
    max_calls: dict[str, int] = field(default_factory=dict)
    """Tool name (or ``"*"``: all calls) -> the most calls allowed."""
    min_calls: dict[str, int] = field(default_factory=dict)
    """Tool name (or ``"*"``: all calls) -> the fewest calls wanted."""
    max_steps: int | None = None
    before: tuple[tuple[str, str], ...] = ()
    """``(first, then)``: no ``then`` call before the first ``first`` call."""

    @property
    def empty(self) -> bool:
        """Whether there is no rule at all."""
        return not (
            self.forbidden_tools
            or self.max_calls
            or self.min_calls
            or self.max_steps is not None
            or self.before
        )

    @classmethod
    def build(
        cls,
        forbidden_tools: list[str] | tuple[str, ...] = (),
        max_calls: int | Mapping[str, int] | None = None,
        min_calls: int | Mapping[str, int] | None = None,
        max_steps: int | None = None,
        before: list[Any] | tuple[Any, ...] = (),
    ) -> TrajectoryRules:
        """Rules from values as written (a number or an object for the call bounds)."""
        return cls(
            forbidden_tools=tuple(forbidden_tools),
            max_calls=_bounds(max_calls),
            min_calls=_bounds(min_calls),
            max_steps=max_steps,
            before=tuple((str(a), str(b)) for a, b in before),
        )

    @classmethod
    def from_value(cls, value: Any) -> TrajectoryRules:
        """A case's ``trajectory_rules`` value; ``ValueError`` naming each problem."""
        found = rules_problems(value)
        if found:
            raise ValueError(
                "; ".join(f"{format_arg_path([RULES_KEY, *path])}: {m}" for path, m in found)
            )
        return cls.build(**value)

    def over(self, base: TrajectoryRules) -> TrajectoryRules:
        """These rules (a case's) added to ``base`` (the criterion's): lists add up, bounds
        given here replace ``base``'s for the same tool."""
        return TrajectoryRules(
            forbidden_tools=tuple(dict.fromkeys(base.forbidden_tools + self.forbidden_tools)),
            max_calls={**base.max_calls, **self.max_calls},
            min_calls={**base.min_calls, **self.min_calls},
            max_steps=self.max_steps if self.max_steps is not None else base.max_steps,
            before=tuple(dict.fromkeys(base.before + self.before)),
        )


__all__ = ["ALL_CALLS", "RULES_KEY", "RULE_NAMES", "TrajectoryRules", "rules_problems"]
