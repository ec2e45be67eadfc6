"""Realistic reports for the reporter tests, built from the result models themselves."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    TokenUsage,
    ToolCall,
    TrajectoryStep,
)
from tenxeval_tui.evaluation.dataset.eval_set import StepType

XSS_RESPONSE = (
    "Sunny. <script>window.__pwned = (window.__pwned || 0) + 1</script>"
    '<img src=x onerror="window.__pwned = (window.__pwned || 0) + 1">'
    "</script><!-- ]]> \u2028 & done"
)


def weather_case(
    eval_id: str,
    *,
    city: str = "London",
    response: str | None = None,
    rouge: float = 0.9,
    trajectory_score: float = 1.0,
    error: str | None = None,
    eval_set_id: str | None = None,
    reason: str = "The answer states the weather in the requested city.",
    duration: float = 1.25,
) -> EvalCaseResult:
    """A single-turn weather case with a tool call, two criteria and a judge reason."""
    call = ToolCall(
        name="get_weather", args={"location": city}, call_id=f"c-{eval_id}", result="sunny, 21C"
    )
    expected = [{"name": "get_weather", "args": {"location": city}}]
    text = response if response is not None else f"The weather in {city} is sunny and 21C."
    criteria = (
        []
        if error
        else [
            CriterionResult.success(
                "tool_trajectory_avg_score",
                trajectory_score,
                1.0,
                details={
                    "expected_trajectory": expected,
                    "actual_trajectory": [call.model_dump(mode="json")],
                },
            ),
            CriterionResult.success(
                "rouge_match",
                rouge,
                0.5,
                details={
                    "expected_response": f"It is sunny in {city}.",
                    "reason": reason,
                    "precision": rouge,
                },
            ),
        ]
    )
    metadata: dict[str, Any] = {"eval_set_id": eval_set_id} if eval_set_id else {}
    return EvalCaseResult(
        eval_id=eval_id,
        name=f"{city} weather",
        passed=error is None and all(cr.passed for cr in criteria),
        criterion_results=criteria,
        actual_tool_calls=[] if error else [call],
        actual_trajectory=[]
        if error
        else [
            TrajectoryStep(step_type=StepType.NODE, name="MAIN"),
            TrajectoryStep(step_type=StepType.TOOL, name="get_weather", args={"location": city}),
            TrajectoryStep(step_type=StepType.NODE, name="MAIN"),
        ],
        actual_response="" if error else text,
        messages=[
            {"role": "user", "content": f"What's the weather in {city}?"},
            *([] if error else [{"role": "assistant", "content": text}]),
        ],
        node_responses=[
            {
                "node_name": "MAIN",
                "input_messages": [{"role": "user", "content": f"What's the weather in {city}?"}],
                "response_text": text,
                "token_usage": {"input_tokens": 40, "output_tokens": 12},
            }
        ],
        node_visits=["MAIN", "TOOL", "MAIN"],
        turn_results=[
            {
                "turn_index": 0,
                "user_input": f"What's the weather in {city}?",
                "agent_response": text,
                "tool_calls": [call.model_dump(mode="json")],
            }
        ],
        duration_seconds=duration,
        error=error,
        metadata=metadata,
        token_usage=TokenUsage(input_tokens=40, output_tokens=12),
    )


def mixed_report(eval_set_id: str = "weather-agent", name: str = "Weather Agent") -> EvalReport:
    """Two passing cases, one below the ROUGE threshold, one that errored."""
    return EvalReport.create(
        eval_set_id=eval_set_id,
        eval_set_name=name,
        results=[
            weather_case("london", city="London"),
            weather_case("paris", city="Paris", rouge=0.8),
            weather_case(
                "tokyo",
                city="Tokyo",
                rouge=0.2,
                reason="The answer names the wrong city.",
                response="The weather in Osaka is rainy.",
            ),
            weather_case("broken", city="Oslo", error="TimeoutError: case took longer than 30s"),
        ],
    )
