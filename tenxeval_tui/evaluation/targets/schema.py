"""What an agent offers, for authoring: its tools (names, parameters, docs) and its nodes.

:func:`describe_target` reads it from what an agent spec names (see
:mod:`.loader`), without running the agent:

- a 10xGraph ``StateGraph``: every node's name, and the tools of every ``ToolNode``,
  as 10xGraph itself describes them to a model (``ToolNode.get_local_tool()``: name,
  docstring, a JSON Schema of the parameters with their types and defaults);
- a plain agent (an async function or an object with ``ainvoke``): the callables in its
  ``tools`` attribute, described the same way from their signatures and docstrings, and
  the names in its ``nodes`` attribute::

      async def support_agent(message: str, trace: Trace) -> str: ...

      support_agent.tools = [lookup_order, refund]
      support_agent.nodes = ["ROUTER", "ANSWER"]

:func:`check_call` says what is wrong with an expected tool call against the schema
(unknown tool, unknown argument, missing required argument, wrong type). No UI import.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.dataset.arg_matchers import is_matcher

INJECTED_PARAMS = frozenset({"state", "config", "tool_call_id", "trace"})
"""Parameters a framework passes to a tool itself: never part of a call's arguments."""

_JSON_TYPES: dict[type, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    tuple: "array",
    set: "array",
    dict: "object",
    type(None): "null",
}


class ToolSpec(BaseModel):
    """One tool: its name, its description and the JSON Schema of its parameters."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)

    @property
    def properties(self) -> dict[str, dict[str, Any]]:
        """Parameter name -> its JSON Schema, in the function's order."""
        found = self.parameters.get("properties")
        return found if isinstance(found, dict) else {}

    @property
    def required(self) -> list[str]:
        """The parameters a call must give."""
        found = self.parameters.get("required")
        return [str(name) for name in found] if isinstance(found, list) else []

    def signature(self) -> str:
        """``name(a: integer, b: string = "x")``: the parameters with types and defaults."""
        parts = []
        required = set(self.required)
        for name, schema in self.properties.items():
            part = f"{name}: {type_name(schema)}"
            if name not in required:
                default = schema.get("default")
                part += " = " + (repr(default) if "default" in schema else "None")
            parts.append(part)
        return f"{self.name}({', '.join(parts)})"

    def summary(self) -> str:
        """The signature and the first line of the description."""
        first = self.description.strip().splitlines()[0] if self.description.strip() else ""
        return f"{self.signature()}: {first}" if first else self.signature()


class AgentSchema(BaseModel):
    """An agent's tools and node names (both possibly empty: nothing is known)."""

    tools: list[ToolSpec] = Field(default_factory=list)
    nodes: list[str] = Field(default_factory=list)

    def tool(self, name: str) -> ToolSpec | None:
        """The tool called ``name``, if the agent has one."""
        for tool in self.tools:
            if tool.name == name:
                return tool
        return None

    @property
    def tool_names(self) -> list[str]:
        """Every tool's name, in the agent's order."""
        return [tool.name for tool in self.tools]


def type_name(schema: dict[str, Any]) -> str:
    """A short name of a JSON Schema's type (``string``, ``integer | null``, ``any``)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return " | ".join(type_name(o) for o in options if isinstance(o, dict))
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    return "any"


def _annotation_schema(annotation: Any) -> dict[str, Any]:
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {}
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(annotation))}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_annotation_schema(a) or {} for a in typing.get_args(annotation)]}
    base = origin or annotation
    if isinstance(base, type):
        for py_type, json_type in _JSON_TYPES.items():
            if issubclass(base, py_type) and not (py_type is int and issubclass(base, bool)):
                return {"type": json_type}
    return {}


def function_spec(fn: Callable[..., Any], name: str | None = None) -> ToolSpec:
    """A :class:`ToolSpec` of a plain Python function: its parameters' types (from the
    annotations), defaults and the docstring (framework parameters left out)."""
    label = name or str(getattr(fn, "__name__", "tool"))
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return ToolSpec(name=label)
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # unresolvable forward references: no types, still the names
        hints = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name in INJECTED_PARAMS:
            continue
        schema = _annotation_schema(hints.get(param.name, param.annotation))
        if param.default is param.empty:
            required.append(param.name)
        elif _json_value(param.default):
            schema = {**schema, "default": param.default}
        properties[param.name] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    return ToolSpec(
        name=label,
        description=inspect.getdoc(fn) or "",
        parameters=parameters,
    )


def _json_value(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _graph_schema(graph: Any) -> AgentSchema:
    from tenxgraph.core.graph.tool_node import ToolNode
    from tenxgraph.utils.constants import END, START

    nodes: list[str] = []
    tools: list[ToolSpec] = []
    for name, node in graph.nodes.items():
        if name in (START, END):
            continue
        nodes.append(str(name))
        func = getattr(node, "func", None)
        if isinstance(func, ToolNode):
            for entry in func.get_local_tool():
                function = entry.get("function") or {}
                tools.append(
                    ToolSpec(
                        name=str(function.get("name", "")),
                        description=str(function.get("description") or ""),
                        parameters=dict(function.get("parameters") or {}),
                    )
                )
    return AgentSchema(tools=tools, nodes=nodes)


def _plain_schema(agent: Any) -> AgentSchema:
    declared = getattr(agent, "tools", None) or ()
    tools: list[ToolSpec] = []
    if isinstance(declared, dict):
        declared = [(str(k), v) for k, v in declared.items()]
    for item in declared if isinstance(declared, Iterable) else ():
        if isinstance(item, tuple) and len(item) == 2 and callable(item[1]):
            tools.append(function_spec(item[1], item[0]))
        elif callable(item):
            tools.append(function_spec(item))
    nodes = getattr(agent, "nodes", None) or ()
    names = [str(n) for n in nodes] if isinstance(nodes, list | tuple) else []
    return AgentSchema(tools=tools, nodes=names)


def describe_target(obj: Any) -> AgentSchema:
    """The schema of an agent as :func:`~.loader.build_target` returns it: a 10xGraph
    ``StateGraph`` or a plain agent; an ``(app, collector)`` pair describes its app."""
    if isinstance(obj, tuple) and len(obj) == 2:
        obj = getattr(obj[0], "agent", obj[0])  # a wrapped plain agent keeps its agent
    if type(obj).__module__.startswith("tenxgraph.") and hasattr(obj, "nodes"):
        return _graph_schema(obj)
    return _plain_schema(obj)


def _matches(value: Any, schema: dict[str, Any]) -> bool:
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        return any(_matches(value, o) for o in options if isinstance(o, dict))
    if "enum" in schema and isinstance(schema["enum"], list):
        return value in schema["enum"]
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    if not kinds:
        return True
    return any(_is_json_type(value, k) for k in kinds)


def _is_json_type(value: Any, kind: str) -> bool:
    match kind:
        case "string":
            return isinstance(value, str)
        case "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "boolean":
            return isinstance(value, bool)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
        case "null":
            return value is None
    return True


def _json_kind(value: Any) -> str:
    for py_type, json_type in _JSON_TYPES.items():
        if isinstance(value, py_type) and not (py_type is int and isinstance(value, bool)):
            return json_type
    return type(value).__name__


class CallProblems(BaseModel):
    """What is wrong with one expected tool call: of its name, and of its arguments."""

    name: str | None = None
    args: list[str] = Field(default_factory=list)


LISTED_NAMES = 8
"""Most names a message lists (a graph may have a hundred tools)."""


def names_listed(names: list[str], what: str = "it has") -> str:
    """``it has: a, b, c`` or ``it has: a, ... h … (92 more)``: a few names of many."""
    shown = ", ".join(names[:LISTED_NAMES])
    more = len(names) - LISTED_NAMES
    return f"{what}: {shown}" + (f" … ({more} more)" if more > 0 else "")


def check_call(schema: AgentSchema, name: str, args: dict[str, Any]) -> CallProblems:
    """The problems of an expected call of ``name`` with ``args`` against the agent's tools.

    Nothing is said when the agent declares no tools (nothing is known of them) or the
    name is still empty (being typed). An argument given as a matcher
    (``{"$regex": ...}``) is not type-checked; args given as ``{"$subset": {...}}`` are
    checked for unknown keys only (others may be left out), as ``$any``/``$eq`` args
    are not checked at all.
    """
    problems = CallProblems()
    if not schema.tools or not name:
        return problems
    tool = schema.tool(name)
    if tool is None:
        problems.name = f"the agent has no tool {name!r} ({names_listed(schema.tool_names)})"
        return problems
    partial = is_matcher(args)
    if partial:
        inner = args.get("$subset")
        args = inner if isinstance(inner, dict) else {}
    properties = tool.properties
    for key, value in args.items():
        if key not in properties:
            known = ", ".join(properties) or "none"
            problems.args.append(f"unknown argument {key!r} (parameters: {known})")
        elif not is_matcher(value) and not _matches(value, properties[key]):
            problems.args.append(
                f"{key}: expected {type_name(properties[key])}, got {_json_kind(value)}"
            )
    missing = [] if partial else [key for key in tool.required if key not in args]
    if missing:
        problems.args.append("missing required argument " + ", ".join(repr(k) for k in missing))
    return problems


__all__ = [
    "AgentSchema",
    "CallProblems",
    "ToolSpec",
    "check_call",
    "describe_target",
    "function_spec",
    "names_listed",
    "type_name",
]
