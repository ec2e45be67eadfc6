"""Load and save a 10,000-case eval set; print the seconds of each (target: <= 0.5 s each).

Run: .venv/bin/python bench/evalset_io.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tenxeval_tui.evaluation import EvalCase, EvalSet, SessionInput, ToolCall

CASES = 10_000
TARGET_SECONDS = 0.5
REPEATS = 5


def build_eval_set() -> EvalSet:
    cases = []
    for i in range(CASES):
        if i % 4 == 0:
            case = EvalCase.multi_turn(
                eval_id=f"case_{i}",
                conversation=[
                    (f"Hello, I need help with order {i}", "Sure, what is wrong with it?"),
                    ("It arrived broken, can I get a refund?", "I have started your refund."),
                ],
                expected_tools=[ToolCall(name="start_refund", args={"order_id": i})],
                name=f"Refund flow {i}",
                tags=["multi_turn", "refunds"],
            )
        else:
            case = EvalCase.single_turn(
                eval_id=f"case_{i}",
                user_query=f"What is the weather in city number {i} tomorrow morning?",
                expected_response=f"Tomorrow morning in city {i} it will be sunny and 18°C.",
                expected_tools=[ToolCall(name="get_weather", args={"city": f"city-{i}"})],
                expected_node_order=["MAIN", "TOOL", "MAIN"],
                name=f"Weather {i}",
                tags=["weather", "smoke"] if i % 3 else ["weather"],
                session_input=SessionInput(user_id=f"user-{i % 50}", state={"locale": "en"}),
                metadata={"context": "Forecasts come from the national weather service."},
            )
        cases.append(case)
    return EvalSet(eval_set_id="bench-10k", name="Benchmark", eval_cases=cases)


def timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> int:
    eval_set = build_eval_set()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.evalset.json"
        save = [timed(lambda: eval_set.to_file(path)) for _ in range(REPEATS)]
        load = [timed(lambda: EvalSet.from_file(path)) for _ in range(REPEATS)]
        size_mb = path.stat().st_size / 1e6
    print(f"eval set: {CASES} cases, {size_mb:.1f} MB on disk; median of {REPEATS} runs")
    ok = True
    for label, times in (("load", load), ("save", save)):
        median = statistics.median(times)
        ok = ok and median <= TARGET_SECONDS
        verdict = "ok" if median <= TARGET_SECONDS else "OVER TARGET"
        print(f"  {label}: {median:.3f} s (target <= {TARGET_SECONDS} s) {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
