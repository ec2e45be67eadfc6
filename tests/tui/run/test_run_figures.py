"""The run's figures: pass rate with its Wilson interval (per criterion too), pace and time
left, cost; wrapped between figures, never inside one; wall time in the report browser."""

from __future__ import annotations

from rich.text import Text

from tenxeval_tui.evaluation import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.runs.live_run import LiveRun
from tenxeval_tui.screens.reports.report_detail import run_time_parts
from tenxeval_tui.widgets.run.run_progress import (
    RunCounter,
    RunTally,
    packed,
    rate_text,
    run_pace,
    running_left,
    summary_text,
)


def planned(count: int, clock: list[float]) -> LiveRun:
    run = LiveRun(clock=lambda: clock[0])
    cases = [[f"c{i}", ""] for i in range(count)]
    run.on_worker_line(
        {"type": "worker_plan", "eval_sets": [{"eval_set_id": "s", "name": "", "cases": cases}]}
    )
    return run


def scored(eval_id: str, traj: bool, resp: bool, cost: float | None = None) -> EvalCaseResult:
    return EvalCaseResult(
        eval_id=eval_id,
        passed=traj and resp,
        metadata={"eval_set_id": "s"},
        cost_usd=cost,
        criterion_results=[
            CriterionResult(criterion="tool_trajectory_avg_score", score=float(traj), passed=traj),
            CriterionResult(criterion="response_match_score", score=float(resp), passed=resp),
        ],
    )


def test_rate_text_is_the_wilson_interval_in_percent() -> None:
    assert rate_text(3, 4) == "75% [30-95]"
    assert rate_text(0, 5) == "0% [0-43]"
    assert rate_text(5, 5) == "100% [57-100]"


def test_figures_count_each_criterion_the_pace_the_time_left_and_the_cost() -> None:
    clock = [100.0]
    run = planned(8, clock)
    run.on_case_end(scored("c0", True, True, cost=0.01))
    run.on_case_end(scored("c1", True, False, cost=0.02))
    clock[0] = 110.0
    counter = RunCounter()
    tally = counter.tally(run)
    assert tally.criteria == {"tool_trajectory_avg_score": (2, 2), "response_match_score": (1, 2)}
    assert tally.cost is not None and abs(tally.cost - 0.03) < 1e-9
    assert run_pace(tally, 10.0) == (0.2, 30.0)  # 2 cases in 10 s, 6 left
    text = summary_text(run, tally=tally).plain
    assert "pass rate 50% [9-91]" in text
    assert "traj 100% [34-100]" in text and "resp 50% [9-91]" in text
    assert "elapsed 10s" in text and "0.20 cases/s" in text and "left ~30s" in text
    assert "cost $0.0300" in text
    # Counted as cases change, the figures equal a full count.
    run.on_case_end(scored("c1", True, True))
    assert counter.tally(run, run.take_dirty()) == RunTally.of(run)


def test_carried_cases_are_not_counted_in_the_pace() -> None:
    clock = [0.0]
    run = planned(0, clock)
    run.carry([scored("old", True, True)])
    clock[0] = 5.0
    assert run_pace(RunTally.of(run), 5.0) is None  # nothing run yet this time


def test_packed_breaks_only_between_figures() -> None:
    text = Text("3/5 done  passed 3  pass rate 75% [30-95]  elapsed 12s")
    lines = packed(text, 30).plain.splitlines()
    assert lines == ["3/5 done  passed 3", "pass rate 75% [30-95]", "elapsed 12s"]
    assert packed(text, 200).plain == text.plain


def test_the_report_browser_names_wall_time_and_summed_durations() -> None:
    shown = Text.assemble(*run_time_parts(21.2, 7.0)).plain
    assert shown == "7.0s wall · 21.2s summed over cases"
    assert Text.assemble(*run_time_parts(21.2, None)).plain == "21.2s summed over cases"


def test_the_time_left_counts_what_the_running_cases_still_need() -> None:
    """#29: eight quick cases done in 2 s and two slow ones running made `left ~0s` while
    the slow ones had 24 s to go: the estimate is never less than the running cases need."""
    clock = [100.0]
    run = planned(10, clock)
    for i in range(8):
        run.on_case_start("s", EvalCase.single_turn(f"c{i}", "q", "r"))
        run.on_case_end(scored(f"c{i}", True, True).model_copy(update={"duration_seconds": 1.0}))
    for slow in ("c8", "c9"):
        run.on_case_start("s", EvalCase.single_turn(slow, "q", "r"))
    run.expected_seconds = {"s::c8": 26.0, "s::c9": 12.0}  # how long they took last time
    clock[0] = 102.0
    tally = RunTally.of(run)
    assert run_pace(tally, 2.0) == (4.0, 0.5)  # at the pace alone: 2 cases at 4 a second
    assert running_left(run) == 24.0  # c8 needs 26 s and has run 2
    assert "left ~24s" in summary_text(run, tally=tally).plain
    run.expected_seconds = {}  # never ran before: as long as the longest case run now
    assert running_left(run) == 0.0  # 1 s, and they have run 2 already: the pace says
    clock[0] = 130.0
    assert running_left(run) == 0.0  # past what they were expected to need: the pace says
