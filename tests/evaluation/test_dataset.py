"""The eval-set data model as the seeds document it (snippets adapted to our import path)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    EvalCase,
    EvalSet,
    EvalSetBuilder,
    Invocation,
    MessageContent,
    SessionInput,
    StepType,
    ToolCall,
    TrajectoryStep,
    create_simple_eval_set,
)


def test_single_turn_case_keeps_expectations_on_its_invocation() -> None:
    case = EvalCase.single_turn(
        eval_id="london_weather",
        user_query="Weather in London?",
        expected_response="It is sunny in London.",
        expected_tools=[ToolCall(name="get_weather", args={"location": "London"})],
        expected_node_order=["MAIN", "TOOL", "MAIN"],
        name="London weather check",
        description="Verifies the weather tool is called for London queries",
    )
    inv = case.conversation[0]
    assert inv.user_content == MessageContent.user("Weather in London?")
    assert inv.expected_final_response is not None
    assert case.conversation[0].expected_final_response.get_text() == "It is sunny in London."
    assert inv.expected_tool_trajectory == [
        ToolCall(name="get_weather", args={"location": "London"})
    ]
    assert inv.expected_node_order == ["MAIN", "TOOL", "MAIN"]
    assert case.name == "London weather check"
    assert not hasattr(case, "expected_response")


def test_multi_turn_attaches_expected_tools_to_the_first_turn() -> None:
    case = EvalCase.multi_turn(
        eval_id="multi_weather",
        conversation=[("Weather in London?", "Sunny."), ("And in Tokyo?", "Rainy.")],
        expected_tools=[ToolCall(name="get_weather")],
    )
    assert len(case.conversation) == 2
    assert case.conversation[0].expected_tool_trajectory == [ToolCall(name="get_weather")]
    assert case.conversation[1].expected_tool_trajectory == []
    assert case.get_user_queries() == ["Weather in London?", "And in Tokyo?"]
    assert case.get_final_expected_response() == "Rainy."


def test_expectations_of_all_turns_concatenate() -> None:
    case = EvalCase(
        eval_id="c",
        conversation=[
            Invocation(
                user_content=MessageContent.user("a"),
                expected_tool_trajectory=[ToolCall(name="one")],
                expected_node_order=["MAIN"],
            ),
            Invocation(
                user_content=MessageContent.user("b"),
                expected_tool_trajectory=[ToolCall(name="two")],
                expected_node_order=["TOOL"],
            ),
        ],
    )
    assert [t.name for t in case.get_expected_tool_trajectory()] == ["one", "two"]
    assert case.get_expected_node_order() == ["MAIN", "TOOL"]


def test_message_content_get_text_joins_text_blocks_with_spaces() -> None:
    msg = MessageContent(
        role="assistant",
        content=[
            {"type": "text", "text": "It is"},
            {"type": "image", "url": "x.png"},
            {"type": "text", "text": "sunny."},
        ],
    )
    assert msg.get_text() == "It is sunny."
    assert MessageContent.assistant("hi").role == "assistant"
    assert MessageContent.user("hi").role == "user"


def test_defaults_are_the_documented_ones() -> None:
    assert SessionInput() == SessionInput(app_name="", user_id="test_user", state={}, config={})
    assert ToolCall(name="get_weather").args == {}
    session = SessionInput(user_id="alice", state={"locale": "fr"})
    assert session.state == {"locale": "fr"}
    step = TrajectoryStep(step_type=StepType.TOOL, name="get_weather")
    assert step.args == {} and step.step_type == "tool"
    assert [s.value for s in StepType] == ["node", "tool", "message", "conditional"]


def test_builder_cases_tools_and_node_order() -> None:
    eval_set = (
        EvalSetBuilder("weather-agent")
        .add_case(
            query="Weather in London?",
            expected="The weather in London is sunny.",
            expected_tools=["get_weather"],
        )
        .add_case(
            query="Weather in Tokyo?",
            expected="Raining in Tokyo.",
            expected_tools=[ToolCall(name="get_weather", args={"location": "Tokyo"})],
        )
        .add_case(
            query="Search and summarise the latest AI news",
            expected="Here is a summary...",
            expected_tools=["search_web"],
            expected_node_order=["MAIN", "TOOL", "MAIN"],
            case_id="news",
        )
        .build()
    )
    assert eval_set.name == "weather-agent"
    uuid.UUID(eval_set.eval_set_id)  # a generated UUID
    assert [c.eval_id for c in eval_set.eval_cases] == ["case_1", "case_2", "news"]
    first, second, third = eval_set.eval_cases
    assert first.conversation[0].expected_tool_trajectory == [ToolCall(name="get_weather")]
    assert second.conversation[0].expected_tool_trajectory[0].args == {"location": "Tokyo"}
    assert third.conversation[0].expected_node_order == ["MAIN", "TOOL", "MAIN"]


def test_add_tool_test_defaults_the_expected_response() -> None:
    eval_set = (
        EvalSetBuilder("t")
        .add_tool_test(
            query="What is the weather in Berlin?",
            tool_name="get_weather",
            tool_args={"location": "Berlin"},
            expected_response="Berlin",
            case_id="berlin_weather",
        )
        .add_tool_test(query="Weather?", tool_name="get_weather")
        .build()
    )
    berlin, default = eval_set.eval_cases
    assert berlin.eval_id == "berlin_weather"
    assert berlin.get_final_expected_response() == "Berlin"
    assert berlin.conversation[0].expected_tool_trajectory == [
        ToolCall(name="get_weather", args={"location": "Berlin"})
    ]
    assert default.get_final_expected_response() == "Result from get_weather"


def test_add_multi_turn() -> None:
    eval_set = (
        EvalSetBuilder("m")
        .add_multi_turn(
            conversation=[
                ("Hello", "Hi! How can I help?"),
                ("What can you do?", "I can check weather, search the web, and more."),
                ("Check weather in Paris", "It is 18°C in Paris."),
            ],
            expected_tools=["get_weather"],
            case_id="multi_turn_weather",
        )
        .build()
    )
    case = eval_set.get_case("multi_turn_weather")
    assert case is not None and len(case.conversation) == 3
    assert [t.name for t in case.conversation[0].expected_tool_trajectory] == ["get_weather"]
    assert case.conversation[2].expected_tool_trajectory == []


def test_quick_and_from_conversations() -> None:
    quick = EvalSetBuilder.quick(("Hello", "Hi!"), ("What is 2+2?", "4"), ("Capital?", "Paris"))
    assert len(quick) == 3
    assert [c.get_final_expected_response() for c in quick] == ["Hi!", "4", "Paris"]
    convs = EvalSetBuilder.from_conversations(
        [{"user": "Hello", "assistant": "Hi!"}, {"user": "Bye", "assistant": "Goodbye!"}],
        name="smoke-tests",
    )
    assert convs.name == "smoke-tests"
    assert [c.get_user_queries()[0] for c in convs] == ["Hello", "Bye"]


def test_quick_and_from_conversations_use_10xgraphs_ids_and_names() -> None:
    quick = EvalSetBuilder.quick(("Hello", "Hi!"), ("Bye", "Goodbye!"))
    assert [c.eval_id for c in quick] == ["test_1", "test_2"]
    assert quick.name == "quick_tests"
    convs = EvalSetBuilder.from_conversations([{"user": "Hello", "assistant": "Hi!"}] * 2)
    assert [c.eval_id for c in convs] == ["conv_1", "conv_2"]
    assert convs.name == "conversation_tests"


def test_builder_exposes_name_and_its_cases() -> None:
    builder = EvalSetBuilder("weather").add_case(query="q", expected="a", case_id="one")
    assert builder.name == "weather"
    assert [c.eval_id for c in builder.cases] == ["one"]
    builder.name = "renamed"
    builder.cases.append(builder.cases[0].model_copy(update={"eval_id": "two"}))
    built = builder.build()
    assert built.name == "renamed"
    assert [c.eval_id for c in built] == ["one", "two"]


def test_invocation_simple_leaves_no_expected_reply_as_none() -> None:
    turn = Invocation.simple("Weather?", expected_tools=[ToolCall(name="get_weather")])
    assert turn.user_content.get_text() == "Weather?"
    assert turn.expected_final_response is None
    assert [t.name for t in turn.expected_tool_trajectory] == ["get_weather"]
    assert turn.expected_node_order == []
    full = Invocation.simple("Hi", "Hello!", expected_node_order=["MAIN"])
    assert full.expected_final_response is not None
    assert full.expected_final_response.role == "assistant"
    assert full.expected_final_response.get_text() == "Hello!"
    assert full.expected_node_order == ["MAIN"]


def test_save_returns_the_set_and_from_file_continues_it(tmp_path: Path) -> None:
    path = tmp_path / "evals" / "weather.json"
    saved = EvalSetBuilder("weather-tests").add_case(query="q", expected="a").save(path)
    assert isinstance(saved, EvalSet)
    assert EvalSet.from_file(path) == saved
    builder = EvalSetBuilder.from_file(path)
    builder.add_case(query="Weather in Seoul?", expected="Seoul")
    extended = builder.build()
    assert extended.eval_set_id == saved.eval_set_id
    assert [c.eval_id for c in extended] == ["case_1", "case_2"]


def test_build_returns_an_independent_copy() -> None:
    builder = EvalSetBuilder("x").add_case("a", "b")
    first = builder.build()
    builder.add_case("c", "d")
    assert len(first) == 1 and len(builder.build()) == 2


def test_create_simple_eval_set() -> None:
    eval_set = create_simple_eval_set(
        "basic_tests", [("Hello", "Hi there!", "greeting"), ("What is 2+2?", "4", None)]
    )
    assert eval_set.eval_set_id == "basic_tests"
    assert [c.eval_id for c in eval_set] == ["case_0", "case_1"]
    assert [c.name for c in eval_set] == ["greeting", "Case 1"]


def test_filter_by_tags_requires_every_tag() -> None:
    eval_set = EvalSet(
        eval_set_id="t",
        eval_cases=[
            EvalCase.single_turn("a", "q", tags=["smoke", "tools"]),
            EvalCase.single_turn("b", "q", tags=["smoke"]),
            EvalCase.single_turn("c", "q"),
        ],
    )
    assert [c.eval_id for c in eval_set.filter_by_tags(["smoke"])] == ["a", "b"]
    assert [c.eval_id for c in eval_set.filter_by_tags(["smoke", "tools"])] == ["a"]
    assert [c.eval_id for c in eval_set.filter_by_tags([])] == ["a", "b", "c"]


def test_minimal_hand_written_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "min.evalset.json"
    path.write_text(
        '{"eval_set_id": "m", "eval_cases": [{"eval_id": "one", "conversation": '
        '[{"user_content": "Hi", "expected_final_response": "Hello"}]}]}',
        encoding="utf-8",
    )
    eval_set = EvalSet.from_file(path)
    case = eval_set.eval_cases[0]
    assert case.conversation[0].user_content == MessageContent.user("Hi")
    assert case.get_final_expected_response() == "Hello"
    assert case.session_input.user_id == "test_user"


def test_add_case_rejects_a_duplicate_id() -> None:
    eval_set = EvalSet(eval_set_id="d", eval_cases=[EvalCase.single_turn("a", "q")])
    with pytest.raises(ValueError, match="duplicate eval_id 'a'"):
        eval_set.add_case(EvalCase.single_turn("a", "other"))
    with pytest.raises(ValueError, match="duplicate eval_id"):
        EvalSetBuilder("b").add_case("q", case_id="x").add_case("q2", case_id="x")


def test_from_data_accepts_bare_string_messages_without_touching_the_data() -> None:
    data = {
        "eval_set_id": "d",
        "eval_cases": [{"eval_id": "c", "conversation": [{"user_content": "hi"}]}],
    }
    eval_set = EvalSet.from_data(data)
    assert eval_set.eval_cases[0].conversation[0].user_content == MessageContent.user("hi")
    assert data["eval_cases"][0]["conversation"][0]["user_content"] == "hi"  # type: ignore[index]
    with pytest.raises(ValueError, match="eval_cases"):
        EvalSet.from_data({"eval_set_id": "d", "eval_cases": "nope"})


def test_trajectory_step_factories_and_call_id_matching() -> None:
    node = TrajectoryStep.node("MAIN", timestamp=1.0, event_type="end")
    assert (node.step_type, node.name, node.metadata) == (
        StepType.NODE,
        "MAIN",
        {"event_type": "end"},
    )
    tool = TrajectoryStep.tool("get_weather", {"city": "Rome"}, tool_call_id="c1")
    assert (tool.step_type, tool.args, tool.metadata) == (
        StepType.TOOL,
        {"city": "Rome"},
        {"tool_call_id": "c1"},
    )
    made = ToolCall(name="get_weather", args={"city": "Rome"}, call_id="c1")
    assert made.matches(ToolCall(name="get_weather", args={"city": "Rome"}))  # args checked
    assert not made.matches(ToolCall(name="get_weather", args={"city": "Oslo"}))
    assert made.matches(ToolCall(name="get_weather", args={"city": "Oslo"}), check_args=False)
    assert made.matches(ToolCall(name="get_weather", call_id="c2"))  # ids ignored by default
    assert not made.matches(ToolCall(name="get_weather", call_id="c2"), check_call_id=True)
    assert made.matches(ToolCall(name="get_weather", call_id="c1"), check_call_id=True)
