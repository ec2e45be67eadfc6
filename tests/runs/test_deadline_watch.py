"""The command's watch over its child's case deadlines (runs/deadline_watch.py): it holds
the cases running, not every case the run started, and still names the one that ran late."""

from __future__ import annotations

import threading

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult
from tenxeval_tui.runs.deadline_watch import DeadlineWatch
from tests.waiting import scaled


def _ended(eval_id: str) -> EvalCaseResult:
    return EvalCaseResult(eval_id=eval_id, passed=True, metadata={EVAL_SET_ID_KEY: "s"})


def test_a_finished_case_is_let_go_and_a_late_one_is_still_named() -> None:
    killed = threading.Event()
    watch = DeadlineWatch(0.2, killed.set)
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
