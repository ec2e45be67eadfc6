"""How the run table's columns share its width (pure functions, no app)."""

from __future__ import annotations

import pytest

from tenxeval_tui.widgets.run.run_columns import CELL_PADDING, plan_columns, short_name

SCORES = [("tool_trajectory_avg_score", 1.0), ("response_match_score", 0.5)]


@pytest.mark.parametrize("width", [30, 44, 56, 80, 92, 120, 200])
def test_the_columns_fit_and_the_scores_always_show(width: int) -> None:
    plan = plan_columns(width, SCORES)
    assert sum(w + CELL_PADDING for w in plan.widths.values()) <= max(width, 30)
    assert "scores" in plan.widths and "status" in plan.widths and "case" in plan.widths


def test_low_priority_columns_give_way_first() -> None:
    wide = plan_columns(200, SCORES)
    assert list(wide.widths) == ["status", "eval set", "case", "time", "tokens", "scores"]
    assert wide.score_form == "full" and not wide.status_short
    medium = plan_columns(56, SCORES)  # the run view's table at 100 columns
    assert "eval set" not in medium.widths
    # Every number of a case stays: its time, its tokens and its scores.
    assert "time" in medium.widths and "tokens" in medium.widths
    assert medium.score_form == "short"
    assert medium.widths["scores"] >= len("traj 1.00  resp 0.50")
    narrow = plan_columns(44, SCORES)  # at 80 columns
    assert list(narrow.widths) == ["status", "case", "scores"] and narrow.status_short
    assert narrow.widths["scores"] >= len("traj 1.00  resp 0.50")
    tiny = plan_columns(30, SCORES)
    assert tiny.score_form == "numbers"


def test_short_names() -> None:
    assert short_name("tool_trajectory_avg_score") == "traj"
    assert short_name("my_custom_check_v3") == "my_custom_"
    assert short_name("polite") == "polite"
