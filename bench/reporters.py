"""Reporter speed and size on a 5,000-case report with realistic content.

Prints the seconds to write the JSON, HTML and JUnit XML reports and in total,
and each file's size, next to the targets (total <= 1.5 s, HTML <= 15 MB).
Run: .venv/bin/python bench/reporters.py [cases] [rounds] [--compare]
(--compare also runs 10xGraph's own reporters on the same report, once.)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    HTMLReporter,
    JSONReporter,
    JUnitXMLReporter,
    TokenUsage,
    ToolCall,
    TrajectoryStep,
)
from tenxeval_tui.evaluation.dataset.eval_set import StepType

TOTAL_TARGET_S = 1.5
HTML_TARGET_MB = 15.0
CITIES = ["London", "Paris", "Tokyo", "Oslo", "Lima", "Cairo", "Perth", "Quebec", "Seoul", "Rome"]
TEXT = (
    "the forecast shows light rain in the morning clearing to sunshine by afternoon with "
    "temperatures between twelve and nineteen degrees a gentle breeze from the west humidity "
    "around sixty percent and no warnings in effect for the region tomorrow looks similar"
)
WORDS = TEXT.split()


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def make_case(index: int, rng: random.Random) -> EvalCaseResult:
    """One case like a real weather-agent run: 1-3 turns, tools with args and results,
    node responses with their input messages, four criteria with details."""
    city = CITIES[index % len(CITIES)]
    turns = 2 if index % 4 == 0 else 1  # a quarter of the cases are multi-turn
    calls, steps, messages, nodes, turn_results, node_visits = [], [], [], [], [], []
    for turn in range(turns):
        question = (
            f"Turn {turn + 1}: what's the weather in {city} on day {turn}? {sentence(rng, 8)}"
        )
        messages.append({"role": "user", "content": question})
        call = ToolCall(
            name="get_weather",
            args={"location": city, "day": turn, "units": "metric"},
            call_id=f"call_{index}_{turn}",
            result={"summary": sentence(rng, 12), "high": 19, "low": 12},
        )
        calls.append(call)
        answer = " ".join(sentence(rng, 14) for _ in range(4))
        steps += [
            TrajectoryStep(step_type=StepType.NODE, name="MAIN"),
            TrajectoryStep(step_type=StepType.TOOL, name="get_weather", args=call.args),
            TrajectoryStep(step_type=StepType.NODE, name="MAIN"),
        ]
        node_visits += ["MAIN", "TOOL", "MAIN"]
        nodes += [
            {
                "node_name": "MAIN",
                "input_messages": list(messages),
                "response_text": "",
                "has_tool_calls": True,
                "tool_call_names": ["get_weather"],
                "token_usage": {"input_tokens": 220, "output_tokens": 30},
            },
            {
                "node_name": "MAIN",
                "input_messages": list(messages),
                "response_text": answer,
                "is_final": True,
                "token_usage": {"input_tokens": 320, "output_tokens": 110},
            },
        ]
        messages.append({"role": "assistant", "content": answer})
        turn_results.append(
            {
                "turn_index": turn,
                "user_input": question,
                "agent_response": answer,
                "tool_calls": [call.model_dump(mode="json")],
                "node_visits": ["MAIN", "TOOL", "MAIN"],
            }
        )
    response = messages[-1]["content"]
    errored = index % 50 == 7
    rouge = rng.uniform(0.45, 1.0)
    judge = rng.uniform(0.58, 1.0)
    criteria = [
        CriterionResult.success(
            "tool_trajectory_avg_score",
            1.0 if index % 17 else 0.5,
            1.0,
            details={
                "reason": f"Matched tools. Expected {['get_weather'] * turns}.",
                "expected_trajectory": [
                    c.model_dump(mode="json", include={"name", "args"}) for c in calls
                ],
                "actual_trajectory": [c.model_dump(mode="json") for c in calls],
                "match_type": "exact",
            },
        ),
        CriterionResult.success(
            "rouge_match",
            rouge,
            0.5,
            details={"precision": rouge, "recall": rouge, "expected_response": sentence(rng, 25)},
        ),
        CriterionResult.success(
            "hallucinations_v1",
            judge,
            0.6,
            details={"reason": " ".join(sentence(rng, 12) for _ in range(2))},
            token_usage=TokenUsage(input_tokens=600, output_tokens=80),
        ),
        CriterionResult.success(
            "node_order_score", 1.0, 1.0, details={"actual_node_order": node_visits}
        ),
    ]
    return EvalCaseResult(
        eval_id=f"case_{index:05d}",
        name=f"{city} weather #{index}",
        passed=not errored and all(c.passed for c in criteria),
        criterion_results=[] if errored else criteria,
        actual_trajectory=steps,
        actual_tool_calls=calls,
        actual_response=response,
        messages=messages,
        node_responses=nodes,
        node_visits=node_visits,
        turn_results=turn_results,
        duration_seconds=rng.uniform(0.5, 4.0),
        error="TimeoutError: case exceeded 30s on turn 1" if errored else None,
        metadata={"tags": ["weather", f"turns-{turns}"]},
        token_usage=TokenUsage(input_tokens=1200 * turns, output_tokens=300 * turns),
        agent_token_usage=TokenUsage(input_tokens=540 * turns, output_tokens=140 * turns),
    )


def main() -> int:
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    cases = numbers[0] if numbers else 5_000
    rounds = numbers[1] if len(numbers) > 1 else 3
    rng = random.Random(42)
    report = EvalReport.create(
        "weather-agent-regression",
        [make_case(i, rng) for i in range(cases)],
        "Weather Agent Regression",
    )
    s = report.summary
    print(
        f"report: {cases} cases ({s.failed_cases} failed, {s.error_cases} errored); "
        f"best and median of {rounds} rounds, each file rendered and written (fsync)"
    )
    reporters = (
        ("JSON", JSONReporter(), "r.json"),
        ("HTML", HTMLReporter(), "r.html"),
        ("JUnit", JUnitXMLReporter(), "r_junit.xml"),
    )
    timings: dict[str, list[float]] = {label: [] for label, _, _ in reporters}
    cpu: dict[str, list[float]] = {label: [] for label, _, _ in reporters}
    totals: list[float] = []
    sizes: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            total = 0.0
            for label, reporter, name in reporters:
                start, start_cpu = time.perf_counter(), time.process_time()
                path = reporter.save(report, Path(folder) / name)
                elapsed = time.perf_counter() - start
                timings[label].append(elapsed)
                cpu[label].append(time.process_time() - start_cpu)
                total += elapsed
                sizes[label] = path.stat().st_size / 1e6
            totals.append(total)
    for label, values in timings.items():
        print(
            f"{label:>6}: {min(values):6.3f} s best, {statistics.median(values):6.3f} s median,"
            f" {min(cpu[label]):6.3f} s CPU   {sizes[label]:7.2f} MB"
        )
    best = min(totals)
    print(
        f" total: {best:6.3f} s best, {statistics.median(totals):6.3f} s median,"
        f" {sum(min(v) for v in cpu.values()):6.3f} s CPU"
        f"   (target <= {TOTAL_TARGET_S} s) {'OK' if best <= TOTAL_TARGET_S else 'OVER'}"
    )
    print(
        f"  HTML: {sizes['HTML']:6.2f} MB (target <= {HTML_TARGET_MB} MB) "
        f"{'OK' if sizes['HTML'] <= HTML_TARGET_MB else 'OVER'}"
    )
    print(
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while measuring;"
        " wall times grow with load, CPU seconds much less)"
    )
    if "--compare" in sys.argv:
        compare_with_10xgraph(report, sum(min(v) for v in cpu.values()))
    return 0 if best <= TOTAL_TARGET_S and sizes["HTML"] <= HTML_TARGET_MB else 1


def compare_with_10xgraph(report: EvalReport, our_cpu: float) -> None:
    """The same report through 10xGraph's own reporters, once (for a load-independent ratio)."""
    from tenxgraph.qa.evaluation import EvalReport as TxReport
    from tenxgraph.qa.evaluation.reporters import HTMLReporter as TxHTML
    from tenxgraph.qa.evaluation.reporters import JSONReporter as TxJSON
    from tenxgraph.qa.evaluation.reporters import JUnitXMLReporter as TxJUnit

    theirs = TxReport.model_validate_json(report.model_dump_json())
    total_cpu = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for label, reporter, name in (
            ("JSON", TxJSON(), "t.json"),
            ("HTML", TxHTML(), "t.html"),
            ("JUnit", TxJUnit(), "t_junit.xml"),
        ):
            start, start_cpu = time.perf_counter(), time.process_time()
            reporter.save(theirs, str(Path(folder) / name))
            elapsed, used = time.perf_counter() - start, time.process_time() - start_cpu
            total_cpu += used
            size = (Path(folder) / name).stat().st_size / 1e6
            print(f"10xGraph {label:>5}: {elapsed:6.3f} s, {used:6.3f} s CPU   {size:7.2f} MB")
    print(
        f"10xGraph total CPU {total_cpu:.3f} s; ours {our_cpu:.3f} s "
        f"({total_cpu / our_cpu:.1f}x less)"
    )


if __name__ == "__main__":
    sys.exit(main())
