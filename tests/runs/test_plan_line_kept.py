"""The worker's ``worker_plan`` line as ``run``'s parent keeps it (runs/child_run.py): read
only when the journal failed, so kept compressed through the run, and read back whole."""

from __future__ import annotations

import io
import json

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.runs.child_run import _Follower, planned_sets
from tenxeval_tui.runs.journal_guard import KeptResults
from tenxeval_tui.runs.worker import plan_line


class _Ended:
    """A child that has ended (the follower only reads its lines here)."""

    def poll(self) -> int:
        return 0


def test_the_plan_line_is_kept_compressed_and_read_back_as_its_sets() -> None:
    cases = [EvalCase.single_turn(f"case-{i:05d}", f"q{i}", "a") for i in range(2000)]
    line = plan_line([EvalSet(eval_set_id="s", name="S", eval_cases=cases)]).encode()
    follower = _Follower(_Ended(), [], None, KeptResults())  # type: ignore[arg-type]
    assert planned_sets(follower.planned_line) == []  # no plan yet

    follower.pump(io.BytesIO(line))

    assert len(follower.planned_line) < len(line) / 4
    assert planned_sets(follower.planned_line) == json.loads(line)["eval_sets"]
    (planned,) = planned_sets(follower.planned_line)
    assert planned["cases"][1999] == ["case-01999", ""]
