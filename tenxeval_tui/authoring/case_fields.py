"""The editable fields of an eval case, as text: how each is shown and how typed text is parsed.

A case is kept as the raw JSON object of its file (so key order and unknown fields
survive); this module reads a field of that object as the text an input shows, and
writes typed text back into a copy of it. Field keys name a field of a case:

``eval_id``, ``name``, ``description``, ``tags``, ``metadata``,
``session.user_id``, ``session.state``, ``session.config``,
``turns.{t}.user``, ``turns.{t}.expected``, ``turns.{t}.nodes``,
``turns.{t}.tools.{c}.name``, ``turns.{t}.tools.{c}.args``.

No UI import here: the editing model and its tests use it directly. The models are
imported where a new object is made, not at import: the editor opens big files faster.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from tenxeval_tui.evaluation.dataset.arg_matchers import format_arg_path, matcher_problems
from tenxeval_tui.evaluation.dataset.trajectory_rules import RULES_KEY, rules_problems

JSON_OBJECT_FIELDS = ("metadata", "session.state", "session.config")


class FieldValueError(ValueError):
    """Typed text that cannot be stored in the field (the message says why)."""


def _split_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _json_object(text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FieldValueError(
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise FieldValueError("invalid JSON: nested too deeply to be read") from None
    if not isinstance(value, dict):
        raise FieldValueError(f"must be a JSON object ({{...}}), not {type(value).__name__}")
    return value


def _readable(found: list[tuple[list[str | int], str]], prefix: list[str | int]) -> None:
    """Raise :class:`FieldValueError` naming the first problem ``found`` (below ``prefix``)."""
    if found:
        path, message = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise FieldValueError(f"{format_arg_path([*prefix, *path])}: {message}{more}")


def _tool_args(text: str) -> dict[str, Any]:
    """Typed args of an expected call: a JSON object whose argument matchers can be read."""
    args = _json_object(text)
    _readable(matcher_problems(args), ["args"])
    return args


def _metadata(text: str) -> dict[str, Any]:
    """Typed case metadata: a JSON object whose ``trajectory_rules`` can be read."""
    metadata = _json_object(text)
    if RULES_KEY in metadata:
        _readable(rules_problems(metadata[RULES_KEY]), [RULES_KEY])
    return metadata


def _dump_object(value: Any, *, compact: bool) -> str:
    if compact:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, indent=2)


def message_text(message: Any) -> str:
    """The text of a message stored as a string or as ``{"role", "content"}``."""
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    if isinstance(message, dict):
        content = message.get("content", "")
        if isinstance(content, list):
            return " ".join(
                str(block.get("text", ""))
                for block in content
                if isinstance(block, dict) and block.get("type", "text") == "text"
            )
        return str(content)
    return str(message)


def _set_message(current: Any, text: str, role: str) -> Any:
    if isinstance(current, str):
        return text
    if isinstance(current, dict):
        updated = dict(current)
        updated["content"] = text
        return updated
    from tenxeval_tui.evaluation.dataset.eval_set import MessageContent

    return MessageContent(role=role, content=text).model_dump(mode="json")


def _turn(case: dict[str, Any], index: int) -> dict[str, Any]:
    turns = case.get("conversation") or []
    if not 0 <= index < len(turns):
        raise KeyError(f"no turn {index + 1}")
    turn: dict[str, Any] = turns[index]
    return turn


def _tool(case: dict[str, Any], turn: int, call: int) -> dict[str, Any]:
    calls = _turn(case, turn).get("expected_tool_trajectory") or []
    if not 0 <= call < len(calls):
        raise KeyError(f"no tool call {call + 1} in turn {turn + 1}")
    tool: dict[str, Any] = calls[call]
    return tool


def field_text(case: dict[str, Any], key: str) -> str:
    """The text an input shows for ``key`` of ``case``."""
    parts = key.split(".")
    match parts:
        case ["eval_id" | "name" | "description" as name]:
            return str(case.get(name, ""))
        case ["tags"]:
            return ", ".join(case.get("tags") or [])
        case ["metadata"]:
            return _dump_object(case.get("metadata") or {}, compact=False)
        case ["session", "user_id"]:
            return str((case.get("session_input") or {}).get("user_id", "test_user"))
        case ["session", ("state" | "config") as name]:
            return _dump_object((case.get("session_input") or {}).get(name) or {}, compact=False)
        case ["turns", t, "user"]:
            return message_text(_turn(case, int(t)).get("user_content"))
        case ["turns", t, "expected"]:
            return message_text(_turn(case, int(t)).get("expected_final_response"))
        case ["turns", t, "nodes"]:
            return ", ".join(_turn(case, int(t)).get("expected_node_order") or [])
        case ["turns", t, "tools", c, "name"]:
            return str(_tool(case, int(t), int(c)).get("name", ""))
        case ["turns", t, "tools", c, "args"]:
            return _dump_object(_tool(case, int(t), int(c)).get("args") or {}, compact=True)
    raise KeyError(f"unknown field {key!r}")


def with_field(case: dict[str, Any], key: str, text: str) -> dict[str, Any]:
    """A copy of ``case`` with ``key`` set from ``text``; :class:`FieldValueError` if it does not parse."""
    updated = copy.deepcopy(case)
    parts = key.split(".")
    match parts:
        case ["eval_id" | "name" | "description" as name]:
            updated[name] = text
        case ["tags"]:
            updated["tags"] = _split_list(text)
        case ["metadata"]:
            updated["metadata"] = _metadata(text)
        case ["session", name] if name in ("user_id", "state", "config"):
            session = updated.get("session_input")
            if not isinstance(session, dict):
                from tenxeval_tui.evaluation.dataset.eval_set import SessionInput

                session = SessionInput().model_dump(mode="json")
                updated["session_input"] = session
            session[name] = text if name == "user_id" else _json_object(text)
        case ["turns", t, "user"]:
            turn = _turn(updated, int(t))
            turn["user_content"] = _set_message(turn.get("user_content"), text, "user")
        case ["turns", t, "expected"]:
            turn = _turn(updated, int(t))
            current = turn.get("expected_final_response")
            turn["expected_final_response"] = (
                None if text == "" else _set_message(current, text, "assistant")
            )
        case ["turns", t, "nodes"]:
            _turn(updated, int(t))["expected_node_order"] = _split_list(text)
        case ["turns", t, "tools", c, "name"]:
            _tool(updated, int(t), int(c))["name"] = text
        case ["turns", t, "tools", c, "args"]:
            _tool(updated, int(t), int(c))["args"] = _tool_args(text)
        case _:
            raise KeyError(f"unknown field {key!r}")
    return updated


def new_tool_call() -> dict[str, Any]:
    """A blank expected tool call, shaped as the models write one."""
    from tenxeval_tui.evaluation.dataset.eval_set import ToolCall

    return ToolCall(name="").model_dump(mode="json")


def turn_keys(case: dict[str, Any], turn: int) -> list[str]:
    """The field keys of one turn, in form order."""
    keys = [f"turns.{turn}.user", f"turns.{turn}.expected"]
    calls = _turn(case, turn).get("expected_tool_trajectory") or []
    for call in range(len(calls)):
        keys += [f"turns.{turn}.tools.{call}.name", f"turns.{turn}.tools.{call}.args"]
    keys.append(f"turns.{turn}.nodes")
    return keys


# Where a structural edit moves turn ``t`` / its tool call ``c`` (``c`` is ``None`` for a
# turn's own fields): the new ``(t, c)``, or ``None`` when that turn or call is gone.
Renumber = Callable[[int, int | None], tuple[int, int | None] | None]


def moved_field_key(key: str, renumber: Renumber) -> str | None:
    """``key`` after turns or tool calls were added, removed or moved (``None``: gone)."""
    match key.split("."):
        case ["turns", t, "tools", c, what]:
            moved = renumber(int(t), int(c))
            return None if moved is None else f"turns.{moved[0]}.tools.{moved[1]}.{what}"
        case ["turns", t, what]:
            moved = renumber(int(t), None)
            return None if moved is None else f"turns.{moved[0]}.{what}"
    return key


def field_label(key: str) -> str:
    """A human name for a field key (used in problem lists)."""
    parts = key.split(".")
    match parts:
        case ["turns", t, "tools", c, what]:
            return f"turn {int(t) + 1}, tool call {int(c) + 1} {what}"
        case ["turns", t, what]:
            names = {"user": "user message", "expected": "expected response", "nodes": "nodes"}
            return f"turn {int(t) + 1} {names.get(what, what)}"
        case ["session", what]:
            return f"session {what}"
    return key


def case_summary(case: dict[str, Any]) -> tuple[int, int]:
    """``(turns, expected tool calls)`` of a case."""
    turns = case.get("conversation") or []
    tools = sum(len(turn.get("expected_tool_trajectory") or []) for turn in turns)
    return len(turns), tools


def case_search_text(case: dict[str, Any]) -> str:
    """Lower-cased text a filter matches against: id, name, description, user messages."""
    parts = [
        str(case.get("eval_id", "")),
        str(case.get("name", "")),
        str(case.get("description", "")),
    ]
    for turn in case.get("conversation") or []:
        parts.append(message_text(turn.get("user_content")))
    return "\n".join(parts).casefold()
