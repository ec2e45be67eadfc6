"""A case's expected tool calls and node names checked against the agent's schema.

What :func:`agent_notes` finds is a *warning* shown under the field (an unknown tool, an
unknown or missing argument, a value of the wrong type, an unknown node), never a
problem that stops a save: the user may mean it (a tool the agent is about to get, a
case that pins down a wrong call). :func:`field_hints` gives what the form shows under
a field when nothing is wrong: the called tool's signature and description, the
agent's nodes. No UI import.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.targets.schema import AgentSchema, check_call, names_listed
from tenxeval_tui.evaluation.tools.spec import SectionPlace

__all__ = ["agent_notes", "field_hints", "tool_section_notes", "unknown_tool"]


def _calls(case: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    found = []
    for t, turn in enumerate(case.get("conversation") or []):
        if not isinstance(turn, dict):
            continue
        for c, call in enumerate(turn.get("expected_tool_trajectory") or []):
            if isinstance(call, dict):
                found.append((t, c, call))
    return found


def agent_notes(
    schema: AgentSchema | None, case: dict[str, Any], *, typing: bool = False
) -> dict[str, str]:
    """Field key -> warning, for every expected call and node order of ``case`` that does
    not fit the agent (see the module's docstring); empty when nothing is known.

    ``typing`` (the form, as the user types): a tool or node name that begins one of the
    agent's is still being typed, and gets no warning yet.
    """
    if schema is None:
        return {}
    notes: dict[str, str] = {}
    for t, c, call in _calls(case):
        args = call.get("args")
        name = str(call.get("name") or "")
        if typing and schema.tool(name) is None and _begins(schema.tool_names, name):
            continue
        problems = check_call(schema, name, args if isinstance(args, dict) else {})
        if problems.name:
            notes[f"turns.{t}.tools.{c}.name"] = problems.name
        if problems.args:
            notes[f"turns.{t}.tools.{c}.args"] = "; ".join(problems.args)
    if schema.nodes:
        known = set(schema.nodes)
        for t, turn in enumerate(case.get("conversation") or []):
            order = turn.get("expected_node_order") if isinstance(turn, dict) else None
            names = [str(n) for n in order or []]
            if typing and names and names[-1] not in known and _begins(schema.nodes, names[-1]):
                names = names[:-1]  # the last one is being typed
            unknown = [n for n in names if n not in known]
            if unknown:
                notes[f"turns.{t}.nodes"] = (
                    f"the agent has no node {', '.join(map(repr, unknown))} "
                    f"({names_listed(schema.nodes)})"
                )
    return notes


def field_hints(schema: AgentSchema | None, case: dict[str, Any]) -> dict[str, str]:
    """Field key -> the help shown under it: the called tool's signature and description
    under its args, the agent's tools under an empty name, its nodes under node orders."""
    if schema is None:
        return {}
    hints: dict[str, str] = {}
    for t, c, call in _calls(case):
        tool = schema.tool(str(call.get("name") or ""))
        if tool is not None:
            hints[f"turns.{t}.tools.{c}.args"] = tool.summary()
        elif not call.get("name") and schema.tools:
            hints[f"turns.{t}.tools.{c}.name"] = _listed("tools", schema.tool_names)
    if schema.nodes:
        for t in range(len(case.get("conversation") or [])):
            hints[f"turns.{t}.nodes"] = _listed("nodes", schema.nodes)
    return hints


def _listed(what: str, names: list[str]) -> str:
    return names_listed(names, what)


def _begins(names: list[str], prefix: str) -> bool:
    return bool(prefix) and any(name.startswith(prefix) for name in names)


def unknown_tool(schema: AgentSchema | None, name: str) -> str | None:
    """The warning for a tool ``name`` the agent does not have (``None`` when it has it,
    when nothing is known of its tools, or when the name is empty)."""
    if schema is None or not schema.tools or not name or schema.tool(name) is not None:
        return None
    return f"the agent has no tool {name!r} ({names_listed(schema.tool_names)})"


def tool_section_notes(schema: AgentSchema | None, section: Any) -> list[tuple[SectionPlace, str]]:
    """Warnings of a ``metadata.tools`` section against the agent: fakes, faults and
    ignored argument keys (``TOOL.KEY``) naming a tool it lacks, or a parameter its tool
    lacks; each with its place in the section. Warnings only: a fake may stand for a tool
    the agent is about to get."""
    if schema is None or not isinstance(section, dict):
        return []
    found: list[tuple[SectionPlace, str]] = []
    fakes = section.get("fakes")
    for tool in fakes if isinstance(fakes, dict) else {}:
        note = unknown_tool(schema, str(tool))
        if note is not None:
            found.append((("fakes", str(tool)), note))
    faults = section.get("faults")
    for index, fault in enumerate(faults if isinstance(faults, list) else []):
        note = (
            unknown_tool(schema, str(fault.get("tool") or "")) if isinstance(fault, dict) else None
        )
        if note is not None:
            found.append((("faults", index, "tool"), note))
    ignored = section.get("ignore_args")
    for index, entry in enumerate(ignored if isinstance(ignored, list) else []):
        tool, dot, key = str(entry).rpartition(".")
        spec = schema.tool(tool) if dot else None
        note = unknown_tool(schema, tool) if dot else None
        if spec is not None and spec.properties and key not in spec.properties:
            note = f"{tool}() has no parameter {key!r} ({names_listed(list(spec.properties))})"
        if note is not None:
            found.append((("ignore_args", index), note))
    return found
