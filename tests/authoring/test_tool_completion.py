"""Completions of the tools dialog: fault kinds, error classes, ignored argument keys
from the agent's schema, state paths, and fakes found in the project's files without
importing them."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.authoring.tool_completion import (
    FakeIndex,
    complete_error_class,
    complete_fault_kind,
    complete_ignored_arg,
    complete_state_path,
    error_class_names,
)
from tenxeval_tui.evaluation.targets.schema import AgentSchema, function_spec


def lookup_order(order_id: str, timestamp: str = "") -> dict[str, str]:
    """Look an order up."""
    return {}


def refund(order_id: str, reason: str) -> str:
    """Refund an order."""
    return ""


SCHEMA = AgentSchema(tools=[function_spec(lookup_order), function_spec(refund)])


def test_kinds_and_built_in_errors_complete_the_usual_ones_first() -> None:
    assert complete_fault_kind("t") == "timeout"
    assert complete_fault_kind("re") == "returns"
    assert complete_fault_kind("") is None and complete_fault_kind("x") is None
    assert complete_error_class("C") == "ConnectionError"
    assert complete_error_class("Ti") == "TimeoutError"
    assert complete_error_class("ZeroD") == "ZeroDivisionError"
    assert complete_error_class("ConnectionError") is None  # complete already
    assert "BaseException" not in error_class_names()  # only what a fault can raise


def test_ignored_keys_complete_a_tool_then_its_parameters_or_any_parameter() -> None:
    assert complete_ignored_arg(SCHEMA, "look") == "lookup_order"
    assert complete_ignored_arg(SCHEMA, "lookup_order.ti") == "lookup_order.timestamp"
    assert complete_ignored_arg(SCHEMA, "timestamp, refund.r") == "timestamp, refund.reason"
    assert complete_ignored_arg(SCHEMA, "time") == "timestamp"  # a key of every tool
    assert complete_ignored_arg(SCHEMA, "nothing.x") is None
    assert complete_ignored_arg(None, "look") is None


def test_state_paths_complete_from_the_starting_state() -> None:
    state = '{"refunds": [], "orders": {"A100": {"status": "new"}}}'
    assert complete_state_path(state, "") == "$."
    assert complete_state_path(state, "$.r") == "$.refunds"
    assert complete_state_path(state, "$.orders.A") == "$.orders.A100"
    assert complete_state_path(state, "$.orders.A100.st") == "$.orders.A100.status"
    assert complete_state_path(state, "$.refunds.x") is None
    assert complete_state_path("{not json", "$.r") is None
    assert complete_state_path("", "") is None


def test_fakes_complete_from_the_projects_modules_which_are_read_not_imported(
    tmp_path: Path,
) -> None:
    package = tmp_path / "my_agent"
    package.mkdir()
    (package / "__init__.py").write_text("")
    # Importing this would raise: completion reads its source instead.
    (package / "fakes.py").write_text(
        "raise SystemExit('imported!')\n\n"
        "def refund(call, state):\n    return 'R'\n\n"
        "async def lookup(call, state):\n    return {}\n\n"
        "class Search:\n    pass\n\n"
        "helper = 1\n"
    )
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "hidden.py").write_text("def x(): pass\n")
    (tmp_path / "broken.py").write_text("def (:\n")
    index = FakeIndex(tmp_path)
    assert index.complete("my") is None  # not read yet
    index.read()
    assert index.complete("my") == "my_agent"
    assert index.complete("my_agent.f") == "my_agent.fakes"
    assert index.complete("my_agent.fakes") == "my_agent.fakes:"
    assert index.complete("my_agent.fakes:r") == "my_agent.fakes:refund"
    assert index.complete("my_agent.fakes:l") == "my_agent.fakes:lookup"
    assert index.complete("my_agent.fakes:S") == "my_agent.fakes:Search"
    assert index.complete("my_agent.fakes:h") is None  # not a function or class
    assert index.complete("hid") is None  # hidden folders are skipped
    assert index.complete("broken:") is None  # a file that does not parse offers nothing
    assert index.modules is not None and "broken" in index.modules
