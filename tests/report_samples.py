"""Deterministic reports for the report-browser tests (fixed timestamps, fixed text)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult, EvalReport, ToolCall
from tenxeval_tui.evaluation.dataset.eval_set import StepType, TrajectoryStep
from tenxeval_tui.evaluation.token_usage import TokenUsage

# 2026-05-19 14:23:01 UTC and a day later
BASELINE_TIME = 1779200581.0
CURRENT_TIME = BASELINE_TIME + 86400


def trajectory_result(expected: list[ToolCall], actual: list[ToolCall]) -> CriterionResult:
    """A tool-trajectory criterion result with the details 10xGraph's criterion writes."""
    names = [c.name for c in expected]
    matched = sum(1 for c in actual if c.name in names)
    score = matched / len(expected) if expected else 1.0
    return CriterionResult.success(
        "tool_trajectory_avg_score",
        score,
        1.0,
        details={
            "reason": f"Matched {score:.0%} of expected tools.",
            "expected_trajectory": [c.model_dump() for c in expected],
            "actual_trajectory": [c.model_dump() for c in actual],
        },
    )


def response_result(expected: str, actual: str, score: float) -> CriterionResult:
    """A rouge criterion result with the expected response in its details."""
    return CriterionResult.success(
        "rouge_match",
        score,
        0.5,
        details={"expected_response": expected, "actual_response": actual},
    )


def judged_result(score: float, reason: str) -> CriterionResult:
    """An LLM-judged criterion result with the judge's reasoning."""
    return CriterionResult.success(
        "factual_accuracy_v1",
        score,
        0.7,
        details={"reason": reason},
        token_usage=TokenUsage(input_tokens=120, output_tokens=30),
    )


def case(
    eval_id: str,
    *,
    name: str = "",
    response: str = "The weather in London is sunny.",
    expected_response: str = "The weather in London is sunny.",
    expected_tools: list[ToolCall] | None = None,
    actual_tools: list[ToolCall] | None = None,
    rouge: float = 0.9,
    judge: float = 0.9,
    reason: str = "Accurate.",
    error: str | None = None,
    tags: list[str] | None = None,
    question: str = "",
) -> EvalCaseResult:
    """One case result whose ``passed`` follows from its criteria (and error)."""
    exp_tools = expected_tools if expected_tools is not None else [ToolCall(name="get_weather")]
    act_tools = (
        actual_tools
        if actual_tools is not None
        else [ToolCall(name="get_weather", args={"location": "London"})]
    )
    criteria = [
        trajectory_result(exp_tools, act_tools),
        response_result(expected_response, response, rouge),
        judged_result(judge, reason),
    ]
    return EvalCaseResult(
        eval_id=eval_id,
        name=name,
        passed=error is None and all(c.passed for c in criteria),
        criterion_results=criteria,
        actual_tool_calls=act_tools,
        actual_trajectory=[
            TrajectoryStep(step_type=StepType.NODE, name="agent"),
            *(TrajectoryStep(step_type=StepType.TOOL, name=c.name, args=c.args) for c in act_tools),
        ],
        actual_response=response,
        messages=[
            {"role": "user", "content": question or f"What is the weather in {eval_id.title()}?"},
            {"role": "assistant", "content": response},
        ],
        node_visits=["agent", "tools", "agent"],
        duration_seconds=1.25,
        error=error,
        metadata={"tags": tags or []},
        token_usage=TokenUsage(input_tokens=400, output_tokens=80),
        agent_token_usage=TokenUsage(input_tokens=280, output_tokens=50),
    )


PARIS_TOOLS = [
    ToolCall(name="get_weather", args={"location": "Paris"}),
    ToolCall(name="get_forecast"),
]


def baseline_report() -> EvalReport:
    """Yesterday's run: london and paris pass, tokyo fails, berlin errors, rome exists."""
    report = EvalReport.create(
        "weather-agent",
        [
            case("london", name="London weather", tags=["smoke"]),
            case(
                "paris",
                name="Paris weather",
                tags=["smoke"],
                response="The weather in Paris is sunny.",
                expected_response="The weather in Paris is sunny.",
                expected_tools=PARIS_TOOLS,
                actual_tools=PARIS_TOOLS,
            ),
            case("tokyo", name="Tokyo weather", rouge=0.2, response="No idea."),
            case("berlin", name="Berlin weather", error="TimeoutError: agent took 30s"),
            case("rome", name="Rome weather"),
        ],
        eval_set_name="Weather Agent Regression",
    )
    report.timestamp = BASELINE_TIME
    return report


def current_report() -> EvalReport:
    """Today's run: paris regressed, tokyo fixed, berlin still failing, rome removed, oslo new."""
    report = EvalReport.create(
        "weather-agent",
        [
            case("london", name="London weather", tags=["smoke"]),
            case(
                "paris",
                name="Paris weather",
                tags=["smoke"],
                response="It is [bold]raining[/bold] in Paris today.",
                expected_response="The weather in Paris is sunny.",
                rouge=0.3,
                judge=0.4,
                reason="Says it rains; the forecast says sun.",
                expected_tools=[
                    ToolCall(name="get_weather", args={"location": "Paris"}),
                    ToolCall(name="get_forecast"),
                ],
                actual_tools=[
                    ToolCall(name="get_weather", args={"location": "Lyon"}),
                    ToolCall(name="search_web", args={"q": "paris"}),
                ],
            ),
            case("tokyo", name="Tokyo weather"),
            case("berlin", name="Berlin weather", rouge=0.1, response="Berlin?"),
            case("oslo", name="Oslo weather", tags=["new"]),
        ],
        eval_set_name="Weather Agent Regression",
    )
    report.timestamp = CURRENT_TIME
    return report


def write_reports(folder: Path) -> tuple[Path, Path]:
    """Write the baseline and current reports into ``folder``; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / "weather-agent_20260519_142301.json"
    cur = folder / "weather-agent_20260520_142301.json"
    baseline_report().to_file(base)
    current_report().to_file(cur)
    return base, cur
