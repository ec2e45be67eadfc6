"""How the run view's case table shares its width: which columns show, how wide, and how
much of each case's scores fits (no UI import: plain functions over widths).

Columns give way by priority: the scores first shorten their criterion names, then the
eval set column goes, the status keeps only its sign, the case name narrows, the tokens
go, then the time, and last the scores drop their names and keep the numbers (at 100
columns a run view's table keeps its time, tokens and scores).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

CELL_PADDING = 2
"""A DataTable cell's padding (one column each side)."""

SHORT_NAMES = {
    "tool_trajectory_avg_score": "traj",
    "response_match_score": "resp",
    "final_response_match_v2": "final",
    "rouge_match": "rouge",
    "exact_match": "exact",
    "contains_keywords": "keywords",
    "tool_name_match_score": "tools",
    "node_order_score": "nodes",
    "hallucinations_v1": "halluc",
    "factual_accuracy_v1": "facts",
    "safety_v1": "safety",
    "rubric_based_final_response_quality_v1": "rubric",
}

SCORE_FORMS = ("full", "short", "numbers")
"""How a case's scores are written: ``tool_trajectory_avg_score 1.00``, ``traj 1.00``,
``1.00``."""


def short_name(criterion: str) -> str:
    """A criterion's name in a few letters (``tool_trajectory_avg_score`` -> ``traj``)."""
    if criterion in SHORT_NAMES:
        return SHORT_NAMES[criterion]
    stem = re.sub(r"(_v\d+|_avg_score|_score|_match)+$", "", criterion) or criterion
    return stem[:10]


def score_label(criterion: str, score: float, form: str) -> str:
    """One criterion's score written in ``form`` (one of :data:`SCORE_FORMS`)."""
    if form == "numbers":
        return f"{score:.2f}"
    name = criterion if form == "full" else short_name(criterion)
    return f"{name} {score:.2f}"


def scores_width(scores: Sequence[tuple[str, float]], form: str) -> int:
    """Cells the scores take written in ``form`` (two spaces between criteria)."""
    labels = [score_label(criterion, score, form) for criterion, score in scores]
    return sum(len(label) for label in labels) + 2 * max(len(labels) - 1, 0)


@dataclass(frozen=True)
class ColumnPlan:
    """The run table's columns for one width: each shown column's width, the scores' form."""

    widths: dict[str, int]
    """Column key -> width, in display order; hidden columns are left out."""
    score_form: str
    status_short: bool
    """Only the status sign (``✓``), not the word."""


STATUS_WIDTH = 11
TIME_WIDTH = 7
TOKENS_WIDTH = 6
EVAL_SET_WIDTH = 12
CASE_WIDTH = 24
CASE_NARROW = 14
CASE_TIGHT = 11
CASE_MIN = 8
SCORES_MIN = 8
ORDER = ("status", "eval set", "case", "time", "tokens", "scores")


def plan_columns(width: int, scores: Sequence[tuple[str, float]]) -> ColumnPlan:
    """The columns for a table ``width`` cells wide; ``scores`` is the widest row's scores
    (what the scores column should fit), empty before any case finished."""
    wanted = {form: max(scores_width(scores, form), SCORES_MIN) for form in SCORE_FORMS}
    if not scores:
        wanted = {"full": 16, "short": 16, "numbers": SCORES_MIN}
    widths = {
        "status": STATUS_WIDTH,
        "eval set": EVAL_SET_WIDTH,
        "case": CASE_WIDTH,
        "time": TIME_WIDTH,
        "tokens": TOKENS_WIDTH,
        "scores": wanted["full"],
    }
    state = {"form": "full", "status_short": False}

    def total() -> int:
        return sum(w + CELL_PADDING for w in widths.values())

    def set_form(form: str) -> None:
        state["form"] = form
        widths["scores"] = wanted[form]

    def short_status() -> None:
        state["status_short"] = True
        widths["status"] = 1

    # What gives way first, in order (lowest priority first).
    steps = [
        lambda: set_form("short"),
        lambda: widths.pop("eval set", None),
        short_status,
        lambda: widths.update(case=CASE_NARROW),
        lambda: widths.update(case=CASE_TIGHT),
        lambda: widths.pop("tokens", None),
        lambda: widths.pop("time", None),
        lambda: set_form("numbers"),
        lambda: widths.update(case=CASE_MIN),
    ]
    for step in steps:
        if total() <= width:
            break
        step()
    # What is left over goes to the scores (their fuller form, when it fits then).
    spare = width - total()
    if spare > 0:
        widths["scores"] += spare
        for form in SCORE_FORMS:
            if wanted[form] <= widths["scores"]:
                state["form"] = form
                break
    elif spare < 0:
        widths["scores"] = max(widths["scores"] + spare, SCORES_MIN)
    shown = {key: widths[key] for key in ORDER if key in widths}
    return ColumnPlan(shown, str(state["form"]), bool(state["status_short"]))


__all__ = [
    "ColumnPlan",
    "plan_columns",
    "score_label",
    "scores_width",
    "short_name",
]
