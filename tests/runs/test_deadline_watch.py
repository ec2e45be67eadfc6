"""The command's watch over its child's case deadlines (runs/deadline_watch.py): it holds
the cases running, not every case the run started, and still names the one that ran late."""

from __future__ import annotations

import threading

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult
from tenxeval_tui.runs.case_deadlines import CaseDeadlines
from tenxeval_tui.runs.deadline_watch import DeadlineWatch
from tests.waiting import scaled, wait_sync


def _ended(eval_id: str) -> EvalCaseResult:
    return EvalCaseResult(eval_id=eval_id, passed=True, metadata={EVAL_SET_ID_KEY: "s"})


def test_a_finished_case_is_let_go_and_a_late_one_is_still_named() -> None:
    killed = threading.Event()
    watch = DeadlineWatch(0.2, killed.set)
    watch.deadlines = CaseDeadlines(0.2, grace=0.0)  # no 5 s of grace in a test
    try:
        for index in range(3):
            watch.on_case_start("s", EvalCase.single_turn(f"c{index}", "hi", "hi"))
        watch.on_case_end(_ended("c0"))
        watch.on_case_end(_ended("c1"))

        assert set(watch.cases) == {("s", "c2")}  # held every case started before
        assert killed.wait(scaled(30))
        assert [(set_id, case.eval_id) for set_id, case in watch.overdue] == [("s", "c2")]
    finally:
        watch.close()


def _sleeping_for_a_case(watch: DeadlineWatch) -> bool:
    return watch._waiting_until < float("inf") and not watch._moved.is_set()


def test_a_case_due_later_than_the_watch_sleeps_until_does_not_wake_it() -> None:
    watch = DeadlineWatch(60.0, lambda: None)
    try:
        watch.on_case_start("s", EvalCase.single_turn("c0", "hi", "hi"))
        wait_sync(lambda: _sleeping_for_a_case(watch))
        for index in range(1, 50):  # a zero-latency run: a case a millisecond, each due later
            watch.on_case_end(_ended(f"c{index - 1}"))
            watch.on_case_start("s", EvalCase.single_turn(f"c{index}", "hi", "hi"))

        assert not watch._moved.is_set()  # the thread was woken for none of them
        assert set(watch.cases) == {("s", "c49")}
    finally:
        watch.close()


def test_a_case_started_while_the_watch_sleeps_for_an_earlier_one_is_still_named() -> None:
    killed = threading.Event()
    watch = DeadlineWatch(0.3, killed.set)
    watch.deadlines = CaseDeadlines(0.3, grace=0.0)  # no 5 s of grace in a test
    try:
        watch.on_case_start("s", EvalCase.single_turn("c0", "hi", "hi"))
        wait_sync(lambda: _sleeping_for_a_case(watch))
        watch.on_case_end(_ended("c0"))
        watch.on_case_start("s", EvalCase.single_turn("c1", "hi", "hi"))  # due later: no wake

        assert killed.wait(scaled(30))
        assert [(set_id, case.eval_id) for set_id, case in watch.overdue] == [("s", "c1")]
    finally:
        watch.close()
