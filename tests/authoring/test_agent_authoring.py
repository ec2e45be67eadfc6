"""Completion and warnings of tool calls and node names from the agent's schema."""

from __future__ import annotations

import pytest

from sample_evals.plain_agent import support_agent
from tenxeval_tui.authoring.agent_checks import agent_notes, field_hints
from tenxeval_tui.authoring.completion import complete_args, complete_nodes, complete_tool_name
from tenxeval_tui.evaluation.targets.schema import describe_target

SCHEMA = describe_target(support_agent)


@pytest.mark.parametrize(
    ("typed", "completed"),
    [
        ("look", "lookup_order"),
        ("r", "refund"),
        ("refund", None),  # complete already
        ("x", None),
        ("", None),
    ],
)
def test_tool_names_complete_from_the_agents_tools(typed: str, completed: str | None) -> None:
    assert complete_tool_name(SCHEMA, typed) == completed


@pytest.mark.parametrize(
    ("typed", "completed"),
    [
        ("", '{"order_id": '),
        ("{", '{"order_id": '),
        ('{"', '{"order_id": '),
        ('{"rea', '{"reason": '),
        ('{"order_id": "A100",', '{"order_id": "A100", "reason": '),
        ('{"order_id": "A100", "', '{"order_id": "A100", "reason": '),
        ('{"order_id": "A100", "reason": "late",', None),  # every parameter given
        ("{rea", None),  # no JSON key being typed
        ('{"order_id": "A1', None),  # a value being typed
    ],
)
def test_argument_keys_complete_from_the_tools_parameters(
    typed: str, completed: str | None
) -> None:
    assert complete_args(SCHEMA, "refund", typed) == completed


def test_arguments_of_an_unknown_tool_do_not_complete() -> None:
    assert complete_args(SCHEMA, "nope", "{") is None
    assert complete_args(None, "refund", "{") is None


@pytest.mark.parametrize(
    ("typed", "completed"),
    [
        ('{"order_id": {"$', '{"order_id": {"$any": true}'),
        ('{"order_id": {"$r', '{"order_id": {"$regex": "'),
        ('{"order_id": {"$ap', '{"order_id": {"$approx": '),
        ('{"order_id": {"$c', '{"order_id": {"$contains": "'),
        ('{"order_id": {"$i', '{"order_id": {"$in": ['),
        ('{"order_id": {"$s', '{"order_id": {"$subset": {'),
        ('{"order_id": {"$e', '{"order_id": {"$eq": '),
        ('{"n": {"$approx": 3.0, ', '{"n": {"$approx": 3.0, "tol": '),
        ('{"n": {"$approx": 3.0, "to', '{"n": {"$approx": 3.0, "tol": '),
        # As the whole args only the matchers of a whole args object, then the tool's keys.
        ('{"$', '{"$subset": {'),
        ('{"$r', None),
        ('{"$subset": {"rea', '{"$subset": {"reason": '),
        ('{"order_id": {"$regex": "', None),  # the pattern is being typed
        ('{"order_id": {"$zz', None),
    ],
)
def test_matchers_complete_as_they_are_typed(typed: str, completed: str | None) -> None:
    assert complete_args(SCHEMA, "refund", typed) == completed
    if "reason" not in (completed or ""):  # matchers need no agent
        assert complete_args(None, "", typed) == completed


def test_node_names_complete_after_the_last_comma() -> None:
    assert complete_nodes(SCHEMA, "RO") == "ROUTER"
    assert complete_nodes(SCHEMA, "ROUTER, AN") == "ROUTER, ANSWER"
    assert complete_nodes(SCHEMA, "ROUTER, ") is None


def _case(name: str, args: dict[str, object], nodes: list[str]) -> dict[str, object]:
    return {
        "conversation": [
            {
                "user_content": "hi",
                "expected_tool_trajectory": [{"name": name, "args": args}],
                "expected_node_order": nodes,
            }
        ]
    }


def test_warnings_name_the_field_and_the_problem() -> None:
    notes = agent_notes(SCHEMA, _case("lookup_order", {"order_id": 7}, ["ROUTER", "ASK"]))
    assert notes == {
        "turns.0.tools.0.args": "order_id: expected string, got integer",
        "turns.0.nodes": "the agent has no node 'ASK' (it has: ROUTER, ANSWER)",
    }
    assert agent_notes(SCHEMA, _case("lookup", {}, []))["turns.0.tools.0.name"].startswith(
        "the agent has no tool 'lookup'"
    )
    assert agent_notes(None, _case("lookup", {}, [])) == {}


def test_hints_show_the_called_tools_signature_and_the_nodes() -> None:
    hints = field_hints(SCHEMA, _case("lookup_order", {}, []))
    assert (
        hints["turns.0.tools.0.args"] == "lookup_order(order_id: string): The status of an order."
    )
    assert hints["turns.0.nodes"] == "nodes: ROUTER, ANSWER"
    assert field_hints(SCHEMA, _case("", {}, []))["turns.0.tools.0.name"] == (
        "tools: lookup_order, refund"
    )


def test_a_hint_lists_a_few_names_of_many() -> None:
    from tenxeval_tui.evaluation.targets.schema import AgentSchema, ToolSpec

    schema = AgentSchema(tools=[ToolSpec(name=f"t{i}") for i in range(100)])
    hint = field_hints(schema, _case("", {}, []))["turns.0.tools.0.name"]
    assert hint == "tools: t0, t1, t2, t3, t4, t5, t6, t7 … (92 more)"


def test_a_name_being_typed_gets_no_warning_in_the_form_only() -> None:
    case = _case("look", {}, ["ROUTER", "ANS"])
    assert agent_notes(SCHEMA, case, typing=True) == {}
    assert set(agent_notes(SCHEMA, case)) == {"turns.0.tools.0.name", "turns.0.nodes"}
    typo = _case("lookx", {}, ["ANS", "ROUTER"])  # not the last node: no longer typed
    assert set(agent_notes(SCHEMA, typo, typing=True)) == {
        "turns.0.tools.0.name",
        "turns.0.nodes",
    }
