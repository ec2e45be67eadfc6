"""Which actual tool call matched which expected one, and why the others did not.

:func:`match_calls` pairs expected and actual calls under a match type, the way
``tool_trajectory_avg_score`` scores them, and keeps the pairing: ``exact`` pairs
position with position, ``in_order`` takes a longest common subsequence, ``any_order``
a maximum matching (with argument matchers "matches" is no longer an equivalence, so
the greedy first fit could miss a pairing that exists). For each expected call left
unpaired it finds the closest actual call of the same tool and the arguments that kept
it from matching (which argument failed which matcher).

Two calls match on the tool name, and with ``check_args`` on the arguments, read with
:mod:`~tenxeval_tui.evaluation.dataset.arg_matchers` (an expected call with no
arguments accepts any). Each expected call's arguments are compiled once per case.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.dataset.arg_matchers import ArgMismatch, ArgsPattern, compile_args
from tenxeval_tui.evaluation.dataset.eval_set import ToolCall

CLOSEST_TRIED = 20
"""At most this many calls of the same tool are explained to find the closest one."""


@dataclass(slots=True)
class CallOutcome:
    """What became of one expected call (indices are 0-based positions in the lists)."""

    expected: int
    matched: int | None = None
    """The actual call it matched."""
    closest: int | None = None
    """Unmatched: the call of the same tool that came nearest."""
    mismatches: list[ArgMismatch] = field(default_factory=list)
    """Unmatched: the arguments of ``closest`` that did not fit."""
    note: str = ""
    """Unmatched: what else stopped it (no call of the tool, another tool in its place)."""

    def describe(self, expected: Sequence[ToolCall], actual: Sequence[ToolCall]) -> str:
        """``expected #2 get_weather: call #3 get_weather: city: "Paris" does not match
        $regex "^Lon"`` (or ``... matched call #3`` when it matched)."""
        head = f"expected #{self.expected + 1} {expected[self.expected].name}"
        if self.matched is not None:
            return f"{head}: matched call #{self.matched + 1}"
        parts = [self.note] if self.note else []
        if self.mismatches and self.closest is not None:
            why = "; ".join(m.describe() for m in self.mismatches)
            parts.append(f"call #{self.closest + 1} {actual[self.closest].name}: {why}")
        return f"{head}: {'; '.join(parts) or 'not matched'}"

    def to_json(self) -> dict[str, Any]:
        """An unmatched expected call as stored in a criterion's details."""
        data: dict[str, Any] = {"expected": self.expected, "closest": self.closest}
        if self.note:
            data["note"] = self.note
        if self.mismatches:
            data["args"] = [m.to_json() for m in self.mismatches]
        return data


@dataclass(slots=True)
class CallsMatch:
    """The pairing of expected and actual calls, and the score it gives."""

    score: float
    outcomes: list[CallOutcome]
    unmatched: list[int]
    """Actual calls that matched no expected call."""

    @property
    def matched_calls(self) -> list[int | None]:
        """For each expected call, the actual call it matched (``None``: none)."""
        return [o.matched for o in self.outcomes]


class _Relation:
    """Which actual calls each expected call matches, worked out as far as asked."""

    def __init__(
        self,
        expected: Sequence[ToolCall],
        actual: Sequence[ToolCall],
        check_args: bool,
        ignore_args: Collection[str],
    ) -> None:
        self.expected = expected
        self.actual = actual
        by_name: dict[str, list[int]] = {}
        for j, call in enumerate(actual):
            by_name.setdefault(call.name, []).append(j)
        self.same_tool = [by_name.get(call.name, []) for call in expected]
        self.patterns: list[ArgsPattern | None] = [
            compile_args(call.args, ignore_args) if check_args and call.args else None
            for call in expected
        ]
        self._fits: list[list[int] | None] = [None] * len(expected)
        self._fit_sets: list[set[int] | None] = [None] * len(expected)

    def fit(self, i: int, j: int) -> bool:
        """Whether actual call ``j`` matches expected call ``i``."""
        if self.actual[j].name != self.expected[i].name:
            return False
        pattern = self.patterns[i]
        return pattern is None or pattern.matches(self.actual[j].args)

    def fits(self, i: int) -> list[int]:
        """The actual calls expected call ``i`` matches, in order."""
        found = self._fits[i]
        if found is None:
            pattern, candidates = self.patterns[i], self.same_tool[i]
            found = (
                candidates
                if pattern is None
                else [j for j in candidates if pattern.matches(self.actual[j].args)]
            )
            self._fits[i] = found
        return found

    def fit_set(self, i: int) -> set[int]:
        """:meth:`fits` as a set."""
        found = self._fit_sets[i]
        if found is None:
            found = self._fit_sets[i] = set(self.fits(i))
        return found


def _exact(rel: _Relation) -> list[tuple[int, int]]:
    return [(i, i) for i in range(min(len(rel.expected), len(rel.actual))) if rel.fit(i, i)]


def _in_order(rel: _Relation) -> list[tuple[int, int]]:
    """A longest common subsequence, the earliest actual calls preferred."""
    n, m = len(rel.expected), len(rel.actual)
    # longest[i][j]: the LCS of expected[i:] and actual[j:]
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below, fits = longest[i], longest[i + 1], rel.fit_set(i)
        for j in range(m - 1, -1, -1):
            if j in fits:
                row[j] = below[j + 1] + 1
            else:
                row[j] = max(below[j], row[j + 1])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if j in rel.fit_set(i) and longest[i][j] == longest[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif longest[i][j + 1] == longest[i][j]:
            j += 1  # skipping this actual call loses nothing
        else:
            i += 1
    return pairs


def _any_order(rel: _Relation) -> list[tuple[int, int]]:
    """A maximum matching (augmenting paths, breadth first), earliest calls tried first."""
    partner_of_actual: dict[int, int] = {}
    for i in range(len(rel.expected)):
        free = next(
            (j for j in rel.same_tool[i] if j not in partner_of_actual and rel.fit(i, j)), None
        )
        if free is not None:
            partner_of_actual[free] = i
            continue
        # Look for a chain: i takes j, j's expected call moves to another call, ...
        came_from: dict[int, tuple[int, int | None]] = {}  # actual j -> (expected, previous j)
        frontier: list[tuple[int, int | None]] = [(i, None)]
        end: int | None = None
        while frontier and end is None:
            following: list[tuple[int, int | None]] = []
            for exp, via in frontier:
                for j in rel.fits(exp):
                    if j in came_from:
                        continue
                    came_from[j] = (exp, via)
                    if j not in partner_of_actual:
                        end = j
                        break
                    following.append((partner_of_actual[j], j))
                if end is not None:
                    break
            frontier = following
        step = end
        while step is not None:
            exp, previous = came_from[step]
            partner_of_actual[step] = exp
            step = previous
    return sorted((i, j) for j, i in partner_of_actual.items())


_PAIRINGS = {
    MatchType.EXACT: _exact,
    MatchType.IN_ORDER: _in_order,
    MatchType.ANY_ORDER: _any_order,
}


def _score(match_type: MatchType, pairs: int, n: int, m: int, partial_credit: bool) -> float:
    if match_type is MatchType.EXACT:
        longest = max(n, m)
        if longest == 0:
            return 1.0
        positional = pairs / longest
        return positional if partial_credit else (1.0 if positional == 1.0 else 0.0)
    return pairs / n if n else 1.0


def _explain(rel: _Relation, outcome: CallOutcome, taken: set[int], exact: bool) -> None:
    """Fill in why expected call ``outcome.expected`` matched nothing."""
    i = outcome.expected
    call = rel.expected[i]
    notes: list[str] = []
    if exact and i >= len(rel.actual):
        notes.append(f"there is no call #{i + 1}")
    elif exact and rel.actual[i].name != call.name:
        notes.append(f"call #{i + 1} is {rel.actual[i].name}")
    candidates = rel.same_tool[i]
    fitting = [j for j in rel.fits(i) if j not in taken]
    untaken = [j for j in candidates if j not in taken]
    pattern = rel.patterns[i]
    if not candidates:
        notes.append(f"{call.name} is never called")
    elif fitting:  # it would match, but not in this order (in_order) or place (exact)
        outcome.closest = fitting[0]
        notes.append(
            f"call #{fitting[0] + 1} fits, {'at another place' if exact else 'out of order'}"
        )
    elif not untaken or pattern is None:
        outcome.closest = candidates[0]
        notes.append(f"each {call.name} call matched another expected call")
    else:
        tried = [i] if exact and i in untaken else untaken[:CLOSEST_TRIED]
        best: tuple[int, list[ArgMismatch]] | None = None
        for j in tried:
            found = pattern.mismatches(rel.actual[j].args)
            if best is None or len(found) < len(best[1]):
                best = (j, found)
        assert best is not None
        outcome.closest, outcome.mismatches = best
    outcome.note = "; ".join(notes)


def match_calls(
    expected: Sequence[ToolCall],
    actual: Sequence[ToolCall],
    match_type: MatchType,
    *,
    check_args: bool = False,
    ignore_args: Collection[str] = (),
    partial_credit: bool = False,
) -> CallsMatch:
    """Pair ``expected`` with ``actual`` under ``match_type`` and score the pairing as the
    trajectory criterion does; unmatched expected calls are explained.

    Raises :class:`~tenxeval_tui.evaluation.dataset.arg_matchers.MatcherError` when an
    expected call's matchers cannot be read.
    """
    if not isinstance(match_type, MatchType):
        match_type = MatchType(match_type)
    rel = _Relation(expected, actual, check_args, ignore_args)
    pairs = _PAIRINGS[match_type](rel)
    outcomes = [CallOutcome(i) for i in range(len(expected))]
    taken: set[int] = set()
    for i, j in pairs:
        outcomes[i].matched = j
        taken.add(j)
    exact = match_type is MatchType.EXACT
    for outcome in outcomes:
        if outcome.matched is None:
            _explain(rel, outcome, taken, exact)
    score = _score(match_type, len(pairs), len(expected), len(actual), partial_credit)
    unmatched = [j for j in range(len(actual)) if j not in taken]
    return CallsMatch(score, outcomes, unmatched)


__all__ = ["CallOutcome", "CallsMatch", "match_calls"]
