"""Stopping one running case, or its tool call in flight, while the run goes on."""

from __future__ import annotations

import asyncio

from tenxgraph.core.graph import StateGraph
from tenxgraph.core.graph.tool_node import ToolNode
from tenxgraph.utils.constants import END

from sample_evals.weather_graph import WeatherModel, _route
from tenxeval_tui.evaluation import EvalSetBuilder, Trace, create_eval_app
from tenxeval_tui.evaluation.case_control import CANCELLED, STOPPED_EARLY_KEY, StopMode
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.evaluator import AgentEvaluator
from tests.waiting import wait_async


async def stuck_lookup(city: str) -> str:
    if city == "Rome":
        await asyncio.Event().wait()  # never set: stuck until ended
    return f"sunny in {city}"


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    try:
        report = await trace.tool("lookup", {"city": city}, stuck_lookup)
    except TimeoutError as exc:  # what the agent sees of a tool call ended in flight
        return f"The lookup timed out: {exc}"
    return f"It is {report}."


def two_cities() -> EvalSetBuilder:
    builder = EvalSetBuilder("cities")
    builder.add_case("Weather in Paris?", "It is sunny in Paris.", case_id="paris")
    builder.add_case("Weather in Rome?", "It is sunny in Rome.", case_id="rome")
    return builder


async def run_until_rome_is_stuck(evaluator: AgentEvaluator) -> asyncio.Task[EvalReport]:
    task = asyncio.create_task(
        evaluator.evaluate(two_cities().build(), max_concurrency=2, run_reporters=False)
    )
    await wait_async(
        lambda: evaluator.tool_calls_in_flight("rome") == ["lookup"],
        lambda: asyncio.sleep(0.01),
        what="Rome's lookup in flight",
    )
    return task


async def test_a_stopped_case_ends_cancelled_and_the_others_finish() -> None:
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector)
    task = await run_until_rome_is_stuck(evaluator)
    assert evaluator.stop_case("rome")
    report = await task
    paris, rome = report.results
    assert paris.error is None and paris.actual_response == "It is sunny in Paris."
    assert rome.error is not None and rome.error.startswith("cancelled by the user")
    assert rome.metadata["error_info"]["error_type"] == CANCELLED
    assert not report.is_partial
    assert not evaluator.stop_case("rome")  # no longer running


async def test_a_stopped_case_can_be_scored_on_what_it_did() -> None:
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector)
    task = await run_until_rome_is_stuck(evaluator)
    assert evaluator.stop_case("rome", StopMode.SCORE)
    _, rome = (await task).results
    assert rome.error is None
    assert rome.metadata[STOPPED_EARLY_KEY] is True
    assert rome.criterion_results  # scored, on the reply it never gave
    assert not rome.passed


async def test_ending_a_tool_call_makes_the_agent_see_a_timeout() -> None:
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector)
    task = await run_until_rome_is_stuck(evaluator)
    assert evaluator.end_tool_calls("rome") == ["lookup"]
    _, rome = (await task).results
    assert rome.error is None
    assert rome.actual_response.startswith("The lookup timed out: lookup: the tool call timed out")
    (call,) = rome.actual_tool_calls
    assert call.name == "lookup"
    (step,) = [s for s in rome.actual_trajectory if s.name == "lookup"]
    assert "ToolCallTimeout" in step.metadata["error"]


async def get_weather(location: str) -> str:
    """Current weather for a city."""
    if location == "Rome":
        await asyncio.Event().wait()  # never set: stuck until ended
    return "sunny"


def stuck_graph() -> StateGraph:
    """The sample weather graph with a ``get_weather`` that never answers for Rome."""
    graph = StateGraph()
    graph.add_node("MAIN", WeatherModel())
    graph.add_node("TOOL", ToolNode([get_weather]))
    graph.add_conditional_edges("MAIN", _route, {"TOOL": "TOOL", END: END})
    graph.add_edge("TOOL", "MAIN")
    graph.set_entry_point("MAIN")
    return graph


async def test_a_10xgraph_tool_call_ended_in_flight_fails_as_a_timeout_the_model_sees() -> None:
    app, collector = create_eval_app(stuck_graph())
    evaluator = AgentEvaluator(app, collector)
    builder = EvalSetBuilder("weather")
    builder.add_case("What is the weather in Rome?", "sunny", case_id="rome")
    task = asyncio.create_task(evaluator.evaluate(builder.build(), run_reporters=False))
    await wait_async(
        lambda: evaluator.tool_calls_in_flight("rome") == ["get_weather"],
        lambda: asyncio.sleep(0.01),
        what="Rome's get_weather in flight",
    )
    assert evaluator.end_tool_calls("rome") == ["get_weather"]
    (rome,) = (await task).results
    assert rome.error is None  # the agent went on: the model answered after the failed call
    (step,) = [s for s in rome.actual_trajectory if s.name == "get_weather"]
    assert "ToolCallTimeout" in step.metadata["error"]
    assert rome.actual_response
