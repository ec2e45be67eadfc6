"""Deterministic reports whose cases ran several times, for the report-browser tests."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation import EvalCaseResult, EvalReport, ToolCall
from tenxeval_tui.evaluation.eval_result import REPEAT_KEY
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tests.report_samples import BASELINE_TIME, CURRENT_TIME, case

GOOD = "The weather in {city} is sunny."
BAD = "I could not find the weather."


def one_run(eval_id: str, passed: bool, repeat: int) -> EvalCaseResult:
    """One repeat: a passing run calls get_weather and says it is sunny; a failing one
    searches the web and gives up."""
    city = eval_id.title()
    good = GOOD.format(city=city)
    run = case(
        eval_id,
        name=f"{city} weather",
        response=good if passed else BAD,
        expected_response=good,
        rouge=0.9 if passed else 0.2,
        expected_tools=[ToolCall(name="get_weather")],
        actual_tools=(
            [ToolCall(name="get_weather", args={"location": city})]
            if passed
            else [ToolCall(name="search_web", args={"q": eval_id})]
        ),
    )
    run.metadata[REPEAT_KEY] = repeat
    return run


def repeated_case(eval_id: str, outcomes: list[bool]) -> EvalCaseResult:
    """A case that ran ``len(outcomes)`` times, passing as ``outcomes`` says (rule: all)."""
    return aggregate_repeats([one_run(eval_id, ok, i) for i, ok in enumerate(outcomes)])


def repeats_report(cases: dict[str, list[bool]], timestamp: float) -> EvalReport:
    """A report of ``cases`` (eval id -> outcomes of its repeats)."""
    report = EvalReport.create(
        "weather-agent",
        [repeated_case(eval_id, outcomes) for eval_id, outcomes in cases.items()],
        eval_set_name="Weather Agent Regression",
    )
    report.timestamp = timestamp
    return report


ALL = [True] * 5
BASELINE_CASES = {"london": ALL, "paris": ALL, "tokyo": ALL, "oslo": [False] * 5}
CURRENT_CASES = {
    "london": ALL,
    "paris": [False, True, False, False, False],  # 5/5 -> 1/5: a real regression
    "tokyo": [True, True, False, True, True],  # 5/5 -> 4/5: a flip within noise
    "oslo": [False] * 5,
}


def write_repeat_reports(folder: Path) -> tuple[Path, Path]:
    """Write a baseline and a current report with repeats into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / "weather-agent_20260519_142301.json"
    cur = folder / "weather-agent_20260520_142301.json"
    repeats_report(BASELINE_CASES, BASELINE_TIME).to_file(base)
    repeats_report(CURRENT_CASES, CURRENT_TIME).to_file(cur)
    return base, cur
