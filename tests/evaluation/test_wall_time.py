"""A report records how long its run took (wall time) next to the sum of case durations."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tenxeval_tui.evaluation import EvalSetBuilder, Trace, create_eval_app
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.evaluator import AgentEvaluator
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal


def test_an_eval_set_run_records_its_wall_time_next_to_the_summed_durations(
    tmp_path: Path,
) -> None:
    """Four cases of 0.2 s each, two at a time: about 0.4 s of wall time, 0.8 s summed.

    The wall time lies between the two rounds of naps and the time the call took as seen
    from outside; a busy machine stretches both, never the order (comparing it with the
    summed durations did not hold: a stall outside the cases counts in the wall time only).
    """

    async def napping(message: str, trace: Trace) -> str:
        await asyncio.sleep(0.2)
        return "ok"

    builder = EvalSetBuilder("naps")
    for i in range(4):
        builder.add_case(f"nap {i}", "ok", case_id=f"n{i}")
    app, collector = create_eval_app(napping)
    journal = tmp_path / "journal.jsonl"
    evaluator = AgentEvaluator(app, collector, observers=[RunJournal(journal)])
    called = time.perf_counter()
    report = asyncio.run(
        evaluator.evaluate(builder.build(), max_concurrency=2, run_reporters=False)
    )
    took = time.perf_counter() - called
    wall = report.summary.wall_seconds
    assert wall is not None
    assert report.summary.total_duration_seconds >= 0.8
    assert 0.4 <= wall <= took  # not the summed durations (0.8 s and more)
    (kept,) = read_journal(journal).values()
    assert kept.summary.wall_seconds == wall
    assert EvalReport.combine([report, report]).summary.wall_seconds == 2 * wall
    assert f"{wall:.2f}s wall time" in report.format_summary()
