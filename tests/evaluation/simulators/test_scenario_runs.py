"""run_scenarios: a scenario file run like an eval set, for every observer, into an EvalReport."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    ConversationScenario,
    EvalCase,
    EvalCaseResult,
    EvalReport,
    EvalSet,
    EventModel,
    JsonLinesObserver,
    ReporterConfig,
    RunObserver,
    ScenarioSet,
    SimulationResult,
    create_eval_app,
    replay_json_lines,
    run_scenarios,
)
from tenxeval_tui.evaluation.events import Event, EventType
from tests.evaluation.criteria.judge_server import CHAT, RESPONSES, JudgeServer
from tests.evaluation.simulators.scripted_user import ScriptedUser, when_said

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")
from sample_evals.weather_graph import build_graph

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "sample_evals" / "weather_graph.scenarios.json"
GOALS = {
    "Learn the weather in Paris": "The weather in Paris is",
    "Learn the weather in Rome": "The weather in Rome is",
    "Learn the weather in Oslo": "The weather in Oslo is",
}


class Recorder(RunObserver):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.calls.append(("run_start", (eval_set.eval_set_id, [c.eval_id for c in cases])))

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.calls.append(("case_start", case.eval_id))

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self.calls.append(("event", (eval_id, event)))

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.calls.append(("case_end", result.eval_id))

    def on_run_end(self, report: EvalReport) -> None:
        self.calls.append(("run_end", report.summary.total_cases))

    def simulated_turns(self, eval_id: str) -> list[tuple[str, str]]:
        """The conversation as a live view sees it: each user message when written, each
        reply when its turn ends."""
        seen: list[tuple[str, str]] = []
        for kind, value in self.calls:
            if kind != "event" or value[0] != eval_id:
                continue
            event = value[1]
            if event.event != Event.GRAPH_EXECUTION:
                continue
            if event.event_type == EventType.PROGRESS and event.data.get("simulated_user"):
                seen.append(("user", event.data["user_message"]))
            elif event.event_type == EventType.END:
                seen.append(("assistant", event.data["response_text"]))
        return seen


async def test_the_sample_file_runs_as_a_report_that_observers_follow(
    judge_env: JudgeServer, tmp_path: Path
) -> None:
    # The joke scenario's user never gets to Oslo: its goal stays unmet and its case fails.
    user = ScriptedUser(
        ["What is the weather in Paris?", "And in Rome?", "Another joke please"] * 2,
        when_said(GOALS),
    )
    user.install(judge_env)
    recorder, lines = Recorder(), []
    report = await run_scenarios(
        create_eval_app(build_graph()),
        SAMPLE,
        observers=[recorder, JsonLinesObserver(lines.append)],
        max_concurrency=1,
        reporter=ReporterConfig(console=False, html=False, timestamp_files=False),
        output_dir=str(tmp_path),
    )
    assert report.eval_set_id == "weather_graph_scenarios"
    assert report.metadata["scenario_run"] is True
    trip, joke = report.results
    assert (trip.eval_id, trip.passed, joke.eval_id, joke.passed) == (
        "weekend_trip",
        True,
        "off_topic",
        False,
    )
    assert (report.summary.passed_cases, report.summary.failed_cases) == (1, 1)
    # The file's simulator config was used: the user through the Responses API, the
    # goal judge (a default CriterionConfig) through chat.
    assert {r["model"] for r in judge_env.requests} == {"gpt-4o-mini", "judge-test"}
    assert {
        (r["model"], route) for r, route in zip(judge_env.requests, judge_env.routes(), strict=True)
    } == {
        ("gpt-4o-mini", RESPONSES),
        ("judge-test", CHAT),
    }

    kinds = [kind for kind, _ in recorder.calls if kind != "event"]
    assert kinds == ["run_start", "case_start", "case_end", "case_start", "case_end", "run_end"]
    assert recorder.calls[0][1] == ("weather_graph_scenarios", ["weekend_trip", "off_topic"])
    assert recorder.simulated_turns("weekend_trip") == [
        ("user", "Hello! I'm planning a weekend away."),
        ("assistant", "Hi! I can tell you the weather in any city."),
        ("user", "What is the weather in Paris?"),
        ("assistant", "The weather in Paris is sunny, 21°C."),
        ("user", "And in Rome?"),
        ("assistant", "The weather in Rome is sunny, 26°C."),
    ]
    joke_turns = recorder.simulated_turns("off_topic")
    assert len(joke_turns) == 2 * 3  # max_turns 3 of the scenario
    # The case result holds the conversation for a report browser.
    simulation = trip.metadata["simulation"]
    assert simulation["goals_achieved"] == [
        "Learn the weather in Paris",
        "Learn the weather in Rome",
    ]
    assert [t["user_input"] for t in trip.turn_results] == [
        text for role, text in recorder.simulated_turns("weekend_trip") if role == "user"
    ]
    assert trip.token_usage.input_tokens > trip.agent_token_usage.input_tokens  # user + judge
    # The worker's JSON lines carry the same stream to another process.
    replayed = Recorder()
    replay_json_lines(lines, replayed)
    assert replayed.simulated_turns("weekend_trip") == recorder.simulated_turns("weekend_trip")

    # The JSON report reads back, and its simulation becomes a regular eval case.
    (written,) = tmp_path.glob("*.json")
    again = EvalReport.model_validate(json.loads(written.read_text()))
    rebuilt = SimulationResult.from_case_result(again.results[0])
    assert (rebuilt.completed, rebuilt.turns, rebuilt.criterion_scores) == (
        True,
        3,
        {"simulation_goals": 1.0},
    )
    case = rebuilt.to_eval_case()
    assert case.get_final_expected_response() == "The weather in Rome is sunny, 26°C."


async def test_a_list_of_scenarios_with_a_failing_case_still_reports_the_others(
    judge_env: JudgeServer,
) -> None:
    ScriptedUser([], when_said(GOALS)).install(judge_env)
    scenarios = [
        ConversationScenario(
            scenario_id="paris",
            starting_prompt="What is the weather in Paris?",
            goals=["Learn the weather in Paris"],
        ),
        ConversationScenario(scenario_id="outage", starting_prompt="crash", goals=["x"]),
    ]
    report = await run_scenarios(create_eval_app(build_graph()), scenarios)
    assert report.eval_set_id == "scenarios"
    paris, outage = report.results
    assert paris.passed and paris.criterion_results[0].score == 1.0
    assert outage.error is not None and "model backend unavailable" in outage.error
    assert outage.metadata["simulation"]["completed"] is False


async def test_a_missing_goal_judge_is_refused_before_anything_runs(
    judge_env: JudgeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TENXEVAL_JUDGE_MODEL")
    scenarios = ScenarioSet(
        scenario_set_id="s", scenarios=[ConversationScenario(scenario_id="a", goals=["g"])]
    )
    with pytest.raises(ValueError, match="no judge model"):
        await run_scenarios(create_eval_app(build_graph()), scenarios)
    assert judge_env.requests == []
