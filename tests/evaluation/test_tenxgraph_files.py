"""Files both ways: JSON reports carry 10xGraph's per-turn keys, and Google ADK eval sets load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalConfig,
    EvalSet,
    ReporterConfig,
    create_eval_app,
)


async def test_json_report_turn_results_carry_10xgraphs_keys(tmp_path: Path) -> None:
    case = EvalCase.multi_turn(
        "chat",
        [
            ("Hello", "Hi! I can tell you the weather in any city."),
            ("What is the weather in Rome?", "The weather in Rome is sunny, 26°C."),
        ],
    )
    config = EvalConfig.default()
    config.reporter = ReporterConfig(
        output_dir=str(tmp_path), console=False, html=False, timestamp_files=False
    )
    app, collector = create_eval_app(build_graph())
    await AgentEvaluator(app, collector, config=config).evaluate(
        EvalSet(eval_set_id="turns", eval_cases=[case])
    )
    (report,) = tmp_path.glob("*.json")
    first, second = json.loads(report.read_text())["results"][0]["turn_results"]
    assert first == {
        "turn_index": 0,
        "user_content": "Hello",
        "response": "Hi! I can tell you the weather in any city.",
        "expected_response": "Hi! I can tell you the weather in any city.",
        "user_input": "Hello",
        "agent_response": "Hi! I can tell you the weather in any city.",
        "tool_calls": [],
        "node_visits": ["MAIN"],
        "trajectory_steps": 1,
    }
    assert second["turn_index"] == 1
    assert second["user_input"] == "What is the weather in Rome?"
    assert second["agent_response"] == "The weather in Rome is sunny, 26°C."
    assert [(c["name"], c["args"]) for c in second["tool_calls"]] == [
        ("get_weather", {"location": "Rome"})
    ]
    assert second["node_visits"] == ["MAIN", "TOOL", "MAIN"]
    assert second["trajectory_steps"] == 4  # MAIN, TOOL node, get_weather, MAIN


ADK_EVALSET = {
    "eval_set_id": "adk_weather",
    "name": "ADK weather",
    "eval_cases": [
        {
            "eval_id": "rome",
            "conversation": [
                {
                    "invocation_id": "e-1",
                    "user_content": {
                        "parts": [{"text": "What is the weather in Rome?"}],
                        "role": "user",
                    },
                    "final_response": {
                        "parts": [{"text": "The weather in Rome is sunny, 26°C."}],
                        "role": "model",
                    },
                    "intermediate_data": {
                        "tool_uses": [
                            {"id": "t1", "name": "get_weather", "args": {"location": "Rome"}}
                        ],
                        "intermediate_responses": [],
                    },
                    "creation_timestamp": 1747000000.0,
                }
            ],
            "session_input": {"app_name": "weather", "user_id": "u1", "state": {}},
            "creation_timestamp": 1747000000.0,
        }
    ],
    "creation_timestamp": 1747000000.0,
}


async def test_a_google_adk_evalset_loads_and_runs(tmp_path: Path) -> None:
    path = tmp_path / "weather.evalset.json"
    path.write_text(json.dumps(ADK_EVALSET))
    eval_set = EvalSet.from_file(path)
    (case,) = eval_set.eval_cases
    turn = case.conversation[0]
    assert turn.user_content.get_text() == "What is the weather in Rome?"
    assert turn.expected_final_response is not None
    assert turn.expected_final_response.get_text() == "The weather in Rome is sunny, 26°C."
    assert [(t.name, t.args) for t in turn.expected_tool_trajectory] == [
        ("get_weather", {"location": "Rome"})
    ]
    config = EvalConfig.default()
    config.criteria.trajectory.check_args = True  # type: ignore[union-attr]
    app, collector = create_eval_app(build_graph())
    report = await AgentEvaluator(app, collector, config=config).evaluate(
        eval_set, run_reporters=False
    )
    assert report.summary.pass_rate == 1.0
    # Saved again, the ADK keys are still there for ADK.
    out = tmp_path / "again.evalset.json"
    eval_set.to_file(out)
    saved = json.loads(out.read_text())["eval_cases"][0]["conversation"][0]
    assert saved["final_response"]["parts"] == [{"text": "The weather in Rome is sunny, 26°C."}]
    assert saved["intermediate_data"]["tool_uses"][0]["name"] == "get_weather"
