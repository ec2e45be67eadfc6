"""User simulation against real agents: the 10xGraph weather graph (offline scripted model)
and the plain support agent, with the loopback server playing the user and the goal judge
through the real openai client, in both API styles."""

from __future__ import annotations

from typing import Any

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    BatchSimulator,
    ConversationScenario,
    CriterionConfig,
    EvalConfig,
    EvalSet,
    SimulationGoalsCriterion,
    SimulationResult,
    UserSimulator,
    UserSimulatorConfig,
    create_eval_app,
    validate_eval_set_file,
)
from tenxeval_tui.evaluation.config.eval_config import CriteriaConfig
from tests.evaluation.criteria.judge_server import CHAT, RESPONSES, JudgeServer, Scripted
from tests.evaluation.simulators.scripted_user import CHECK, JUDGE, WRITE, ScriptedUser, when_said

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")
from sample_evals.plain_agent import support_agent
from sample_evals.weather_graph import build_graph

PARIS, ROME = "Learn the weather in Paris", "Learn the weather in Rome"
TRIP = ConversationScenario(
    scenario_id="trip",
    description="A traveller choosing between Paris and Rome for a weekend",
    starting_prompt="Hello",
    conversation_plan="1. Greet\n2. Ask about Paris\n3. Ask about Rome",
    goals=[PARIS, ROME],
    max_turns=5,
)
WEATHER = when_said({PARIS: "The weather in Paris is", ROME: "The weather in Rome is"})
ROUTES = {"chat": CHAT, "responses": RESPONSES}


def simulator(api_style: str = "responses", **kw: Any) -> UserSimulator:
    judge = SimulationGoalsCriterion(
        CriterionConfig(threshold=0.8, judge_cache=False, api_style=api_style)
    )
    return UserSimulator(criteria=[judge], api_style=api_style, **kw)


@pytest.mark.parametrize("api_style", ["chat", "responses"])
async def test_a_simulated_traveller_reaches_both_goals_with_the_weather_graph(
    judge_env: JudgeServer, api_style: str
) -> None:
    user = ScriptedUser(["What is the weather in Paris?", "And in Rome?"], WEATHER)
    user.install(judge_env)
    result = await simulator(api_style).run(create_eval_app(build_graph()), TRIP)

    assert (result.error, result.completed, result.turns) == (None, True, 3)
    assert result.conversation == [
        {"role": "user", "content": "Hello"},
        {"role": "assistant", "content": "Hi! I can tell you the weather in any city."},
        {"role": "user", "content": "What is the weather in Paris?"},
        {"role": "assistant", "content": "The weather in Paris is sunny, 21°C."},
        {"role": "user", "content": "And in Rome?"},
        {"role": "assistant", "content": "The weather in Rome is sunny, 26°C."},
    ]
    assert result.goals_achieved == [PARIS, ROME]
    assert result.criterion_scores == {"simulation_goals": 1.0}
    assert result.passed
    # The starting prompt was given: the model wrote two messages and checked goals 3 times,
    # then judged once; every call went through the asked API style.
    assert [len(user.prompts[k]) for k in (WRITE, CHECK, JUDGE)] == [2, 3, 1]
    assert set(judge_env.routes()) == {ROUTES[api_style]}
    assert result.simulator_token_usage.input_tokens == 5 * 11
    # The user's model sees the conversation so far and only the goals still open.
    assert "The weather in Paris is sunny" in user.prompts[WRITE][1]
    assert PARIS not in user.prompts[WRITE][1] and ROME in user.prompts[WRITE][1]
    # Each turn keeps its own tool calls.
    calls = [turn["tool_calls"] for turn in result.turn_results]
    assert [[(c["name"], c["args"]) for c in turn] for turn in calls] == [
        [],
        [("get_weather", {"location": "Paris"})],
        [("get_weather", {"location": "Rome"})],
    ]


async def test_the_finished_simulation_is_an_eval_case_that_passes_again(
    judge_env: JudgeServer, tmp_path: Any
) -> None:
    ScriptedUser(["What is the weather in Paris?", "And in Rome?"], WEATHER).install(judge_env)
    result = await simulator().run(create_eval_app(build_graph()), TRIP)
    case = result.to_eval_case()
    assert [t.user_content.get_text() for t in case.conversation] == [
        "Hello",
        "What is the weather in Paris?",
        "And in Rome?",
    ]
    assert case.get_final_expected_response() == "The weather in Rome is sunny, 26°C."
    assert [(t.name, t.args) for t in case.get_expected_tool_trajectory()] == [
        ("get_weather", {"location": "Paris"}),
        ("get_weather", {"location": "Rome"}),
    ]
    assert case.metadata["goals"] == [PARIS, ROME]

    path = tmp_path / "trip.evalset.json"
    EvalSet(eval_set_id="trip", eval_cases=[case]).save(path)
    assert validate_eval_set_file(path) == []
    strict = EvalConfig(
        criteria=CriteriaConfig(
            trajectory=CriterionConfig.trajectory(threshold=1.0, check_args=True),
            response_match=CriterionConfig.response_match(threshold=1.0),
            exact_match=CriterionConfig.exact_match(),
        )
    )
    strict.reporter.enabled = False
    app, collector = create_eval_app(build_graph())
    report = await AgentEvaluator(app, collector, strict).evaluate(EvalSet.from_file(path))
    (again,) = report.results
    assert again.passed, [(c.criterion, c.score, c.details) for c in again.criterion_results]
    assert [turn["agent_response"] for turn in again.turn_results] == [
        m["content"] for m in result.conversation if m["role"] == "assistant"
    ]


async def test_a_plain_agent_with_a_generated_first_message(judge_env: JudgeServer) -> None:
    status, refund = "Get the status of order A100", "Start a refund for order A100"
    user = ScriptedUser(
        ["Hi, where is my order A100?", "It is late, please refund my order."],
        when_said({status: "Order A100 is shipped", refund: "reference R-A100"}),
    )
    user.install(judge_env)
    scenario = ConversationScenario(
        scenario_id="late_order",
        description="A customer whose order A100 is late",
        conversation_plan="Ask where the order is, then ask for a refund",
        goals=[status, refund],
    )
    result = await simulator("responses").run(support_agent, scenario)
    assert (result.error, result.completed, result.turns) == (None, True, 2)
    assert "(nothing yet: write the user's first message)" in user.prompts[WRITE][0]
    assert result.conversation[-1]["content"] == (
        "Your refund for order A100 has started, reference R-A100."
    )
    assert [t["tool_calls"][0]["name"] for t in result.turn_results] == ["lookup_order", "refund"]
    assert result.criterion_scores == {"simulation_goals": 1.0}


async def test_max_turns_is_honoured_and_an_unmet_goal_fails_the_score(
    judge_env: JudgeServer,
) -> None:
    user = ScriptedUser(["Can you book me a flight to Rome?"] * 5, lambda goal, text: False)
    user.install(judge_env)
    scenario = TRIP.model_copy(update={"goals": ["Book a flight to Rome"], "max_turns": 2})
    result = await simulator("chat").run(create_eval_app(build_graph()), scenario)
    assert (result.turns, result.completed, result.goals_achieved) == (2, False, [])
    assert [m["role"] for m in result.conversation] == ["user", "assistant"] * 2
    assert len(user.prompts[WRITE]) == 1  # the second message; no third was asked for
    assert result.criterion_scores == {"simulation_goals": 0.0}
    (judged,) = result.criterion_results
    assert not judged.passed and judged.details["unachieved_goals"] == ["Book a flight to Rome"]
    assert not result.passed


async def test_a_simulator_config_sets_turns_model_and_api_style(judge_env: JudgeServer) -> None:
    ScriptedUser(["Weather in Oslo?"] * 5, lambda goal, text: False).install(judge_env)
    config = UserSimulatorConfig(model="user-model", max_invocations=3, api_style="chat")
    scenario = TRIP.model_copy(update={"max_turns": 0})  # 0: the simulator's own cap
    result = await UserSimulator(config=config).run(create_eval_app(build_graph()), scenario)
    assert result.turns == 3
    assert {r["model"] for r in judge_env.requests} == {"user-model"}
    assert set(judge_env.routes()) == {CHAT}
    assert result.criterion_results == []  # no criteria given: nothing scored


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("Both goals look done to me.", "no JSON object"),
        ('{"goals": [{"goal": 7, "achieved": true}]}', "goals [7] are not among the goals 1 to 2"),
        ('{"goals": [{"goal": 1, "achieved": "perhaps"}]}', "goals.0.achieved"),
    ],
)
async def test_a_garbage_goal_check_ends_the_simulation_with_a_clear_error(
    judge_env: JudgeServer, reply: str, problem: str
) -> None:
    ScriptedUser([], WEATHER, check_reply=lambda goals, text: reply).install(judge_env)
    result = await simulator().run(create_eval_app(build_graph()), TRIP)
    assert result.error is not None and not result.completed
    assert "unparseable goal check from the simulated user's model" in result.error
    assert problem in result.error and repr(reply) in result.error
    assert result.criterion_results == [] and result.turns == 1


async def test_a_failing_user_model_is_named_not_replaced_by_a_made_up_message(
    judge_env: JudgeServer,
) -> None:
    judge_env.script(Scripted(status=400, content="unknown model 'nope'"))
    scenario = TRIP.model_copy(update={"starting_prompt": ""})
    result = await simulator(max_retries=0).run(create_eval_app(build_graph()), scenario)
    assert result.error is not None
    assert "the simulated user's model failed (writing the user's message)" in result.error
    assert "HTTP 400" in result.error and "unknown model 'nope'" in result.error
    assert (result.turns, result.conversation) == (0, [])


async def test_an_agent_error_ends_the_simulation(judge_env: JudgeServer) -> None:
    ScriptedUser(["Please crash now"], WEATHER).install(judge_env)
    result = await simulator().run(create_eval_app(build_graph()), TRIP)
    assert result.error is not None and "model backend unavailable" in result.error
    assert result.error.endswith("(turn 2)")  # a simulated conversation: no "of N"
    assert result.conversation[-1] == {"role": "user", "content": "Please crash now"}


def test_no_model_for_the_simulated_user_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("TENXEVAL_USER_MODEL", "TENXEVAL_JUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(ValueError, match=r"no judge model.*TENXEVAL_USER_MODEL"):
        UserSimulator().settings()
    monkeypatch.setenv("TENXEVAL_USER_MODEL", "user-model")
    assert UserSimulator().settings().model == "user-model"
    assert UserSimulator(model="explicit").settings().model == "explicit"


async def test_a_batch_keeps_the_order_of_its_scenarios(judge_env: JudgeServer) -> None:
    ScriptedUser([], WEATHER).install(judge_env)  # every scenario's goal is met at once
    scenarios = [
        ConversationScenario(
            scenario_id=city.lower(),
            starting_prompt=f"What is the weather in {city}?",
            goals=[f"Learn the weather in {city}"],
        )
        for city in ("Paris", "Rome")
    ]
    batch = BatchSimulator(simulator(), max_concurrency=2)
    results = await batch.run_batch(create_eval_app(build_graph()), scenarios)
    assert [r.scenario_id for r in results] == ["paris", "rome"]
    assert [r.conversation[-1]["content"] for r in results] == [
        "The weather in Paris is sunny, 21°C.",
        "The weather in Rome is sunny, 26°C.",
    ]
    assert batch.summary(results) == {
        "total_scenarios": 2,
        "completed": 2,
        "completion_rate": 1.0,
        "total_goals_achieved": 2,
        "average_turns": 1.0,
        "errors": 0,
    }


def test_a_result_made_by_hand_still_converts() -> None:
    result = SimulationResult(
        scenario_id="hand",
        conversation=[
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello"},
        ],
    )
    case = result.to_eval_case()
    assert (case.eval_id, case.get_final_expected_response()) == ("hand", "Hello")
    with pytest.raises(ValueError, match="no turn"):
        SimulationResult(scenario_id="empty").to_eval_case()
