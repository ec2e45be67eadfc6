"""Plain Python agents as targets: the trace handle, threads, module:attribute lookup."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sample_evals.plain_agent import support_agent
from tenxeval_tui.evaluation import AgentApp, Trace, create_eval_app, load_target, make_eval_app
from tests.waiting import scaled


async def test_trace_records_nodes_tools_and_tokens() -> None:
    app, collector = create_eval_app(support_agent)
    result = await app.ainvoke(
        {"messages": [{"role": "user", "content": "Where is order A100?"}]}, {"thread_id": "t"}
    )
    assert result["response"] == "Order A100 is shipped, expected Friday."
    assert collector.node_visits == ["ROUTER", "ANSWER"]
    assert [(c.name, c.args, c.result) for c in collector.tool_calls] == [
        ("lookup_order", {"order_id": "A100"}, {"status": "shipped", "eta": "Friday"})
    ]
    assert collector.final_response == result["response"]
    assert collector.token_usage.output_tokens == len(result["response"].split())
    assert {e.thread_id for e in collector.events} == {"t"}


async def test_threads_keep_history_and_state_across_turns() -> None:
    seen: list[tuple[int, list[str], dict[str, object]]] = []

    async def agent(message: str, trace: Trace) -> str:
        seen.append((trace.turn, [m["content"] for m in trace.history], dict(trace.state)))
        trace.state["count"] = int(trace.state.get("count", 0)) + 1  # type: ignore[call-overload]
        return f"echo {message}"

    app, _ = create_eval_app(agent)
    await app.ainvoke(
        {"messages": [{"role": "user", "content": "one"}], "state": {"x": 1}}, {"thread_id": "a"}
    )
    await app.ainvoke({"messages": [{"role": "user", "content": "two"}]}, {"thread_id": "a"})
    await app.ainvoke({"messages": [{"role": "user", "content": "other"}]}, {"thread_id": "b"})
    assert seen == [
        (0, [], {"x": 1}),
        (1, ["one", "echo one"], {"x": 1, "count": 1}),
        (0, [], {}),
    ]


async def test_objects_with_ainvoke_and_sync_functions_are_agents() -> None:
    class Agent:
        async def ainvoke(self, message: str, trace: Trace) -> str:
            trace.record_tool("search", {"q": message}, ["hit"])
            return "found"

    def sync_agent(message: str, trace: Trace) -> str:
        return message.upper()

    app, collector = make_eval_app(Agent())
    assert (await app.ainvoke({"messages": [{"role": "user", "content": "x"}]}))[
        "response"
    ] == "found"
    assert collector.tool_calls[0].result == ["hit"]
    app2, _ = make_eval_app(sync_agent)
    assert (await app2.ainvoke({"messages": ["hey"]}))["response"] == "HEY"
    assert make_eval_app(app)[0] is app and isinstance(app, AgentApp)


async def test_a_tool_that_raises_is_recorded_then_propagates() -> None:
    def broken(city: str) -> str:
        raise ConnectionError("no network")

    async def agent(message: str, trace: Trace) -> str:
        return str(await trace.tool("get_weather", {"city": "Oslo"}, broken))

    app, collector = create_eval_app(agent)
    with pytest.raises(ConnectionError):
        await app.ainvoke({"messages": ["hi"]})
    assert collector.trajectory[0].metadata["error"] == "ConnectionError: no network"


def test_load_target_resolves_factories_agents_and_reports_bad_specs(tmp_path: Path) -> None:
    (tmp_path / "my_agents.py").write_text(
        "async def agent(message, trace):\n    return message\ndef factory():\n    return agent\n",
        encoding="utf-8",
    )
    try:
        factory_result = load_target("my_agents:factory", search_path=tmp_path)
        direct = load_target("my_agents:agent")
        assert factory_result is direct
    finally:
        sys.modules.pop("my_agents", None)
        sys.path.remove(str(tmp_path))
    graph = load_target("sample_evals.weather_graph:build_graph")
    assert type(graph).__name__ == "StateGraph"
    with pytest.raises(ValueError, match="module:attribute"):
        load_target("no_colon")
    with pytest.raises(ImportError, match="nowhere_module"):
        load_target("nowhere_module:x")
    with pytest.raises(AttributeError, match="missing"):
        load_target("sample_evals.plain_agent:missing")


def test_plain_agents_work_without_10xgraph_installed() -> None:
    import subprocess

    script = """
import asyncio, sys
sys.modules["tenxgraph"] = None  # as if the 10xgraph extra were not installed
from tenxeval_tui.evaluation import AgentEvaluator, EvalCase, EvalConfig, create_eval_app
from sample_evals.plain_agent import support_agent
app, collector = create_eval_app(support_agent)
config = EvalConfig()
config.reporter.enabled = False
result = asyncio.run(AgentEvaluator(app, collector, config).evaluate_case(
    EvalCase.single_turn("a", "Where is order A100?")))
print(result.actual_tool_calls[0].args)
"""
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=scaled(60)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "{'order_id': 'A100'}"
