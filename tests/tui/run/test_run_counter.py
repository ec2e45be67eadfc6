"""The run view's figures, kept up to date from the cases that changed, always equal a full
count of the run."""

from __future__ import annotations

from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.runs.live_run import CaseStatus, LiveRun
from tenxeval_tui.widgets.run.run_progress import RunCounter, RunTally


def planned(count: int) -> LiveRun:
    run = LiveRun()
    cases = [[f"c{i}", f"case {i}"] for i in range(count)]
    run.on_worker_line(
        {"type": "worker_plan", "eval_sets": [{"eval_set_id": "big", "name": "", "cases": cases}]}
    )
    return run


def result(eval_id: str, *, passed: bool) -> EvalCaseResult:
    return EvalCaseResult(eval_id=eval_id, passed=passed, metadata={"eval_set_id": "big"})


def test_the_figures_follow_the_changed_cases_as_a_full_count_would() -> None:
    run = planned(6)
    counter = RunCounter()
    assert counter.tally(run, run.take_dirty()) == RunTally.of(run)

    def change(key: str, **values: object) -> None:  # as the worker's lines change a case
        for name, value in values.items():
            setattr(run.cases[key], name, value)
        run.dirty.add(key)

    steps = [
        lambda: change("big::c0", status=CaseStatus.RUNNING),
        lambda: run.on_case_end(result("c0", passed=True)),
        lambda: run.on_case_end(result("c1", passed=False)),
        lambda: change("big::c2", tokens=42),
        lambda: run.finish(1),  # the rest is cancelled
    ]
    for step in steps:
        step()
        tally = counter.tally(run, run.take_dirty())
        assert tally == RunTally.of(run)
    assert tally.counts["passed"] == 1 and tally.counts["failed"] == 1
    assert tally.counts["cancelled"] == 4 and tally.tokens == 42
    assert tally.pass_rate == 0.5


def test_a_new_run_or_an_unknown_change_is_counted_whole() -> None:
    counter = RunCounter()
    first = planned(3)
    counter.tally(first)
    second = planned(5)
    assert counter.tally(second, []).total == 5  # another run: its own count
    second.cases.pop("big::c4")  # taken out of the view (removed from its file)
    assert counter.tally(second) == RunTally.of(second)
