"""Accept the replies of many cases at once: pick, plan, write (one undo step, one save).

A real run of a zero-latency plain agent over an eval set of CASES cases, half of which
expect another reply; then prints the seconds to pick the cases that failed on their
reply alone, to plan their changes (the reply; and all three parts, as the dialog for
selected cases previews them), and to apply them and save the file (median of
REPEATS, each on a fresh copy of the file). No target: figures to compare over time.

Run: .venv/bin/python bench/accept_many.py [CASES]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tenxeval_tui.authoring.accept_many import (
    apply_accept_many,
    only_reply_failed,
    plan_accept_many,
)
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalConfig,
    EvalSet,
    ToolCall,
    Trace,
    create_eval_app,
)
from tenxeval_tui.evaluation.actual import PARTS

REPEATS = 5


async def agent(message: str, trace: Trace) -> str:
    trace.node("agent")
    city = message.split()[-1].rstrip("?")
    trace.record_tool("get_weather", {"city": city}, "sunny")
    return f"Sunny in {city}."


def build(cases: int) -> EvalSet:
    return EvalSet(
        eval_set_id="bench",
        eval_cases=[
            EvalCase.single_turn(
                eval_id=f"case_{i}",
                user_query=f"Weather in city{i}?",
                expected_response=f"Sunny in city{i}." if i % 2 else f"Rain in city{i}.",
                expected_tools=[ToolCall(name="get_weather", args={"city": f"city{i}"})],
            )
            for i in range(cases)
        ],
    )


async def main(cases: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.evalset.json"
        build(cases).to_file(path)
        original = path.read_text(encoding="utf-8")
        config = EvalConfig.model_validate(
            {
                "criteria": {
                    "exact_match": {"threshold": 1.0},
                    "tool_trajectory_avg_score": {"threshold": 1.0},
                },
                "reporter": {"enabled": False},
                "concurrency": 16,
            }
        )
        app, collector = create_eval_app(agent)
        report = await AgentEvaluator(app, collector, config).evaluate(EvalSet.from_file(path))
        picks, plans, applies, all_parts = [], [], [], []
        accepted = 0
        for _ in range(REPEATS):
            path.write_text(original, encoding="utf-8")
            started = time.perf_counter()
            runs = [r for r in report.results if only_reply_failed(r)]
            picked = time.perf_counter()
            document = EvalSetDocument.load(path)
            loaded = time.perf_counter()
            plan = plan_accept_many(document, runs)
            planned = time.perf_counter()
            assert apply_accept_many(document, plan) == []
            applied = time.perf_counter()
            plan_accept_many(document, runs, PARTS)  # what a selection's dialog previews
            all_parts.append(time.perf_counter() - applied)
            picks.append(picked - started)
            plans.append(planned - loaded)
            applies.append(applied - planned)
            accepted = len(plan.plans)
        print(f"{cases:,} cases, {accepted:,} replies accepted (median of {REPEATS}):")
        print(f"  pick (rule over the results):  {statistics.median(picks):.3f} s")
        print(f"  plan (each case's new JSON):   {statistics.median(plans):.3f} s")
        print(f"  plan, reply + tools + nodes:   {statistics.median(all_parts):.3f} s")
        print(f"  apply + save (one undo step):  {statistics.median(applies):.3f} s")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000))
