"""Following a run's lines (``replay_json_lines``) makes no case of a ``run_start`` line
until an observer reads it: a run of a million cases made a million cases, a gigabyte at
once, in the command following it."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Sequence

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.observers import RunObserver, replay_json_lines

CASES = 50_000


class _Counter(RunObserver):
    def __init__(self) -> None:
        self.counted = 0
        self.some: list[str] = []

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.counted = len(cases)
        self.some = [cases[0].eval_id, cases[-1].eval_id, *(c.eval_id for c in cases[1:3])]


def test_a_run_start_line_makes_its_cases_only_when_they_are_read() -> None:
    line = json.dumps(
        {"type": "run_start", "eval_set_id": "s", "eval_ids": [f"c{i}" for i in range(CASES)]}
    )
    observer = _Counter()
    tracemalloc.start()
    try:
        assert replay_json_lines([line], observer) == 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert observer.counted == CASES
    assert observer.some == ["c0", f"c{CASES - 1}", "c1", "c2"]
    # the ids (about 60 bytes each) and the parsed line; a case each was over 1 kB
    assert peak < 200 * CASES, f"{peak / 1e6:.1f} MB"
