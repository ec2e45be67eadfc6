"""An agent's tools and nodes, read from a 10xGraph graph and from a plain agent."""

from __future__ import annotations

from typing import Literal

from sample_evals.plain_agent import support_agent
from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation.targets.loader import build_target
from tenxeval_tui.evaluation.targets.schema import (
    AgentSchema,
    check_call,
    describe_target,
    function_spec,
)


def test_a_graph_lists_its_tool_nodes_functions_and_its_nodes() -> None:
    schema = describe_target(build_graph())
    assert schema.nodes == ["MAIN", "TOOL"]
    tool = schema.tool("get_weather")
    assert tool is not None
    assert tool.description == "Current weather for a city."
    assert tool.properties == {"location": {"type": "string"}}
    assert tool.required == ["location"]
    assert tool.summary() == "get_weather(location: string): Current weather for a city."


def test_a_factory_spec_is_built_then_described() -> None:
    schema = describe_target(build_target("sample_evals.weather_graph:build_graph"))
    assert schema.tool_names == ["get_weather"]


def test_a_plain_agent_declares_tools_and_nodes_as_attributes() -> None:
    schema = describe_target(support_agent)
    assert schema.tool_names == ["lookup_order", "refund"]
    assert schema.nodes == ["ROUTER", "ANSWER"]
    refund = schema.tool("refund")
    assert refund is not None and refund.required == ["order_id", "reason"]


def test_a_plain_agent_without_tools_has_an_empty_schema() -> None:
    async def agent(message: str, trace: object) -> str:
        return message

    assert describe_target(agent) == AgentSchema()


def test_function_specs_carry_types_defaults_and_leave_framework_parameters_out() -> None:
    def search(
        query: str,
        limit: int = 5,
        exact: bool = False,
        unit: Literal["c", "f"] = "c",
        tags: list[str] | None = None,
        state: object = None,
    ) -> str:
        """Search the catalogue.

        More text."""
        return query

    spec = function_spec(search)
    assert spec.properties["limit"] == {"type": "integer", "default": 5}
    assert spec.properties["unit"] == {"enum": ["c", "f"], "default": "c"}
    assert "state" not in spec.properties
    assert spec.required == ["query"]
    assert spec.signature() == (
        "search(query: string, limit: integer = 5, exact: boolean = False, "
        "unit: one of 'c', 'f' = 'c', tags: array | null = None)"
    )
    assert spec.summary().endswith(": Search the catalogue.")


def test_check_call_names_every_problem_of_a_call() -> None:
    schema = describe_target(support_agent)
    assert check_call(schema, "refund", {"order_id": "A1", "reason": "late"}).args == []
    unknown = check_call(schema, "refnd", {})
    assert unknown.name == "the agent has no tool 'refnd' (it has: lookup_order, refund)"
    problems = check_call(schema, "refund", {"order_id": 12, "note": "x"})
    assert problems.args == [
        "order_id: expected string, got integer",
        "unknown argument 'note' (parameters: order_id, reason)",
        "missing required argument 'reason'",
    ]


def test_nothing_is_said_when_nothing_is_known_or_the_name_is_empty() -> None:
    assert check_call(AgentSchema(), "anything", {"x": 1}).name is None
    assert check_call(describe_target(support_agent), "", {"x": 1}).args == []


def test_booleans_are_no_integers_and_integers_are_numbers() -> None:
    def tool(count: int, ratio: float) -> None:
        """A tool."""

    schema = AgentSchema(tools=[function_spec(tool)])
    assert check_call(schema, "tool", {"count": True, "ratio": 2}).args == [
        "count: expected integer, got boolean"
    ]


def test_matchers_are_not_taken_for_values_of_the_wrong_type() -> None:
    schema = describe_target(support_agent)
    matched = {"order_id": {"$regex": "^A1"}, "reason": {"$contains": "late"}}
    assert check_call(schema, "refund", matched).args == []
    # $subset args may leave parameters out; unknown keys are still named.
    assert check_call(schema, "refund", {"$subset": {"order_id": "A1"}}).args == []
    loose = check_call(schema, "refund", {"$subset": {"order": "A1"}})
    assert loose.args == ["unknown argument 'order' (parameters: order_id, reason)"]
    assert check_call(schema, "refund", {"$any": True}).args == []
