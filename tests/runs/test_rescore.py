"""Re-scoring a watched run's last results when only the criteria changed."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.runs.rescore import rescored_reports


def test_every_selected_case_is_scored_again_or_none_when_one_never_ran() -> None:
    cases = [EvalCase.single_turn("a", "q", "yes"), EvalCase.single_turn("b", "q", "yes")]
    selected = [(Path("s.evalset.json"), EvalSet(eval_set_id="s", name="S", eval_cases=cases))]
    last = {
        f"s::{i}": EvalCaseResult(
            eval_id=i, passed=True, actual_response=reply, metadata={"eval_set_id": "s"}
        )
        for i, reply in (("a", "yes"), ("b", "no"))
    }
    config = EvalConfig.model_validate({"criteria": {"exact_match": {}}})
    (report,) = rescored_reports(selected, last, config) or []
    assert report.eval_set_id == "s" and report.eval_set_name == "S"
    assert [(r.eval_id, r.passed) for r in report.results] == [("a", True), ("b", False)]
    assert report.config_used["criteria"]["exact_match"] is not None
    assert rescored_reports(selected, {"s::a": last["s::a"]}, config) is None
