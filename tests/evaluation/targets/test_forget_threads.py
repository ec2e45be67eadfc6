"""A run that never goes back to a finished case's thread (the worker: the collector's
``keep_threads`` off) forgets it: the app keeps no state of finished cases, and each case
runs, turn after turn, exactly as when the threads are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenxgraph.core.graph import StateGraph
from tenxgraph.core.state import AgentState
from tenxgraph.qa.testing import TestAgent as ScriptedAgent
from tenxgraph.runtime.adapters.llm.model_response_converter import ModelResponseConverter
from tenxgraph.utils.constants import END

from sample_evals.weather_graph import ScriptedConverter, ScriptedReply
from sample_evals.weather_graph import build_graph as weather_graph
from tenxeval_tui.evaluation import AgentEvaluator, EvalConfig, EvalSetBuilder, create_eval_app
from tenxeval_tui.evaluation.eval_result import EvalReport


class CountingModel(ScriptedAgent):
    """Answers with how many user messages its thread holds: a turn sees the ones before."""

    async def execute(self, state: AgentState, config: dict[str, Any]) -> ModelResponseConverter:
        users = [m for m in state.context or [] if m.role == "user"]
        text = f"{len(users)}: {users[-1].text() if users else ''}"
        return ModelResponseConverter(ScriptedReply(text, [], 1), converter=ScriptedConverter())


def counting_graph() -> StateGraph[AgentState]:
    graph: StateGraph[AgentState] = StateGraph()
    graph.add_node("MAIN", CountingModel())
    graph.add_edge("MAIN", END)
    graph.set_entry_point("MAIN")
    return graph


def eval_set() -> Any:
    return (
        EvalSetBuilder("threads")
        .add_multi_turn([("a", "1: a"), ("b", "2: b"), ("c", "3: c")], case_id="three")
        .add_case("d", "1: d", case_id="one")
        .build()
    )


def config() -> EvalConfig:
    return EvalConfig(
        criteria={"exact_match": {"threshold": 1.0}},
        parallel=False,
        reporter={"enabled": False},
    )


def seen(report: EvalReport) -> list[tuple[str, bool, list[Any]]]:
    """What a user reads of each case: its outcome and what the agent said, turn by turn."""
    return [
        (r.eval_id, r.passed, [t.get("actual_response") for t in r.turn_results])
        for r in report.results
    ]


async def run(graph: StateGraph[AgentState], keep_threads: bool) -> tuple[Any, EvalReport]:
    app, collector = create_eval_app(graph)
    collector.keep_threads = keep_threads
    report = await AgentEvaluator(app, collector, config()).evaluate(eval_set())
    return app, report


async def test_forgotten_threads_leave_no_state_and_the_same_results() -> None:
    kept_app, kept = await run(counting_graph(), keep_threads=True)
    app, forgot = await run(counting_graph(), keep_threads=False)

    assert seen(forgot) == seen(kept)
    assert [r.passed for r in forgot.results] == [True, True]  # turn 3 saw turns 1 and 2
    checkpointer = app._checkpointer
    assert len(kept_app._checkpointer._states) == 2  # what a kept run holds: every case
    assert not checkpointer._states
    assert not checkpointer._state_cache
    assert not checkpointer._messages
    assert not checkpointer._thread_owner
    assert not checkpointer._threads


async def test_a_graph_with_tools_leaves_no_recorded_tool_result() -> None:
    app, collector = create_eval_app(weather_graph())
    collector.keep_threads = False
    cases = EvalSetBuilder("w").add_case("What is the weather in Paris?", "x", case_id="p").build()
    report = await AgentEvaluator(app, collector, config()).evaluate(cases)
    (result,) = report.results
    assert [c.name for c in result.actual_tool_calls] == ["get_weather"]
    assert not app._checkpointer._tool_results
    assert not app._checkpointer._states


async def test_a_plain_agents_thread_is_forgotten_too() -> None:
    async def agent(message: str, trace: Any) -> str:
        trace.state["turns"] = trace.state.get("turns", 0) + 1
        return f"{trace.state['turns']}: {message}"

    app, collector = create_eval_app(agent)
    collector.keep_threads = False
    report = await AgentEvaluator(app, collector, config()).evaluate(eval_set())
    assert [r.passed for r in report.results] == [True, True]
    assert not app._threads


async def test_the_workers_agents_forget_each_finished_cases_thread(tmp_path: Path) -> None:
    from tenxeval_tui.runs.child_setup import load_agents
    from tenxeval_tui.runs.plan import RunPlan

    cases = eval_set()
    plan = RunPlan(
        agent="tests.evaluation.targets.test_forget_threads:counting_graph", eval_sets=[]
    )
    ((app, collector, _),) = load_agents(plan, [(tmp_path / "t.evalset.json", cases)])
    report = await AgentEvaluator(app, collector, config()).evaluate(cases)
    assert [r.passed for r in report.results] == [True, True]
    assert not app._checkpointer._states
