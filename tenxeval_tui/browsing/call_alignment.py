"""Expected and actual tool calls lined up, as the trajectory criterion paired them.

UI-free: the report browser's trajectory view renders these rows. Against an eval
case's expectations, :func:`align_trajectory` pairs the calls with the core's
:func:`~tenxeval_tui.evaluation.criteria.call_matching.match_calls` (the criterion's
own pairing, with its match type, ``check_args``, argument matchers and
``ignore_args``), so each row says which actual call an expected call matched, and for
one that matched none, the closest call and which argument failed which matcher.
Two runs' actual calls (a baseline and this run) are lined up literally by
:func:`align_runs`: an agent's arguments are never read as matchers.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.criteria.call_matching import CallOutcome, match_calls
from tenxeval_tui.evaluation.dataset.arg_matchers import ArgMismatch, MatcherError, compile_args
from tenxeval_tui.evaluation.dataset.eval_set import ToolCall


class StepMatch(StrEnum):
    """How an expected tool call lines up with an actual one."""

    MATCH = "match"
    WRONG_ARGS = "wrong_args"  # same tool, arguments that do not fit
    MISSING = "missing"  # expected, not called
    EXTRA = "extra"  # called, not expected


@dataclass(frozen=True, slots=True)
class AlignedStep:
    """One row of an aligned trajectory: the expected call, the actual call, or both."""

    match: StepMatch
    expected: ToolCall | None
    actual: ToolCall | None
    differing_args: tuple[str, ...] = ()
    """Top-level argument keys that differ (highlighted)."""
    expected_index: int | None = None
    """0-based position of the expected call (``None``: an extra call)."""
    actual_index: int | None = None
    """0-based position of the actual call (``None``: a missing call)."""
    why: tuple[str, ...] = ()
    """Why it did not match: each argument that failed its matcher, or a note."""


_ABSENT = object()


def _literal_differences(expected: ToolCall, actual: ToolCall) -> tuple[str, ...]:
    # As ToolCall.matches compares them: an expectation without args accepts any; one with
    # args wants exactly those, so an argument only one side has differs too.
    if not expected.args:
        return ()
    keys = expected.args.keys() | actual.args.keys()
    return tuple(
        sorted(k for k in keys if expected.args.get(k, _ABSENT) != actual.args.get(k, _ABSENT))
    )


def _top_keys(mismatches: list[ArgMismatch]) -> tuple[str, ...]:
    keys = {m.path.split(".")[0].split("[")[0] for m in mismatches if m.path}
    return tuple(sorted(keys))


def _differences(expected: ToolCall, actual: ToolCall, ignore: Collection[str]) -> tuple[str, ...]:
    """The arguments of a matched pair that would not fit if arguments were checked."""
    if not expected.args:
        return ()
    try:
        return _top_keys(compile_args(expected.args, ignore).mismatches(actual.args))
    except MatcherError:
        return _literal_differences(expected, actual)


def align_runs(baseline: list[ToolCall], current: list[ToolCall]) -> list[AlignedStep]:
    """Two runs' calls lined up by tool name, in order (a diff over names); a pair of
    the same tool with other arguments is a wrong-args row naming them."""
    rows: list[AlignedStep] = []
    matcher = difflib.SequenceMatcher(
        a=[c.name for c in baseline], b=[c.name for c in current], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for offset, (old, new) in enumerate(zip(baseline[i1:i2], current[j1:j2], strict=True)):
                differing = _literal_differences(old, new)
                match = StepMatch.WRONG_ARGS if differing else StepMatch.MATCH
                rows.append(AlignedStep(match, old, new, differing, i1 + offset, j1 + offset))
            continue
        rows.extend(
            AlignedStep(StepMatch.MISSING, old, None, expected_index=i1 + k)
            for k, old in enumerate(baseline[i1:i2])
        )
        rows.extend(
            AlignedStep(StepMatch.EXTRA, None, new, actual_index=j1 + k)
            for k, new in enumerate(current[j1:j2])
        )
    return rows


def _unmatched_row(
    outcome: CallOutcome,
    expected: list[ToolCall],
    actual: list[ToolCall],
    free: set[int],
    after: int,
) -> tuple[float, AlignedStep]:
    """The row of an expected call that matched nothing: paired with its closest call
    when that call is free and keeps the rows in order, else a missing row saying why."""
    i, j = outcome.expected, outcome.closest
    notes = [outcome.note] if outcome.note else []
    if outcome.mismatches and j is not None and j in free and j > after:
        free.discard(j)
        why = tuple(notes + [m.describe() for m in outcome.mismatches])
        keys = _top_keys(outcome.mismatches)
        return j, AlignedStep(StepMatch.WRONG_ARGS, expected[i], actual[j], keys, i, j, why)
    if outcome.mismatches and j is not None:
        found = "; ".join(m.describe() for m in outcome.mismatches)
        notes.append(f"call #{j + 1} {actual[j].name}: {found}")
    return after + 0.5, AlignedStep(
        StepMatch.MISSING, expected[i], None, expected_index=i, why=tuple(notes)
    )


def align_trajectory(
    expected: list[ToolCall],
    actual: list[ToolCall],
    *,
    check_args: bool = True,
    match_type: MatchType = MatchType.IN_ORDER,
    ignore_args: Collection[str] = (),
) -> list[AlignedStep]:
    """Expected calls lined up with the actual ones as the trajectory criterion pairs them
    under ``match_type`` (``check_args`` off: calls of the same tool match whatever their
    arguments, and the arguments that would not fit are still named).

    Rows follow the actual calls; an expected call that matched nothing sits after the
    row of the expected call before it. Expectations whose matchers cannot be read are
    lined up literally (:func:`align_runs`).
    """
    try:
        paired = match_calls(
            expected, actual, match_type, check_args=check_args, ignore_args=ignore_args
        )
    except MatcherError:
        return align_runs(expected, actual)
    free = set(paired.unmatched)
    placed: list[tuple[float, int, AlignedStep]] = []
    after = -1
    for outcome in paired.outcomes:
        i, j = outcome.expected, outcome.matched
        if j is not None:
            differing = () if check_args else _differences(expected[i], actual[j], ignore_args)
            row = AlignedStep(StepMatch.MATCH, expected[i], actual[j], differing, i, j)
            placed.append((j, i, row))
            after = max(after, j)
            continue
        key, row = _unmatched_row(outcome, expected, actual, free, after)
        placed.append((key, i, row))
        if row.actual_index is not None:
            after = row.actual_index
    for j in sorted(free):
        placed.append((j, -1, AlignedStep(StepMatch.EXTRA, None, actual[j], actual_index=j)))
    placed.sort(key=lambda item: (item[0], item[1]))
    return [row for _, _, row in placed]


__all__ = ["AlignedStep", "StepMatch", "align_runs", "align_trajectory"]
