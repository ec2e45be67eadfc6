"""Google ADK's eval-set shape, read as ours.

ADK's ``*.evalset.json`` files differ from 10xGraph's in two places: a message
is a genai ``Content`` (``{"role": "user", "parts": [{"text": "..."}]}``)
rather than ``{"role", "content"}``, and a turn's expectations are
``final_response`` and ``intermediate_data.tool_uses`` rather than
``expected_final_response`` and ``expected_tool_trajectory``. The functions
here map the former onto the latter before validation; the ADK keys stay in
the data (unknown fields are kept), so nothing of the file is lost.
"""

from __future__ import annotations

from typing import Any


def content_from_parts(data: Any) -> Any:
    """A genai ``Content`` as a message: its text parts become ``content``."""
    if not isinstance(data, dict) or "content" in data or "parts" not in data:
        return data
    parts = data["parts"]
    if not isinstance(parts, list):
        return data  # left for validation to name
    texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return {**data, "role": data.get("role") or "user", "content": "\n".join(texts)}


def invocation_from_adk(data: Any) -> Any:
    """An ADK invocation's ``final_response`` and ``tool_uses`` as our expectations."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if "expected_final_response" not in out and out.get("final_response") is not None:
        out["expected_final_response"] = out["final_response"]
    intermediate = out.get("intermediate_data")
    if "expected_tool_trajectory" not in out and isinstance(intermediate, dict):
        uses = intermediate.get("tool_uses")
        if isinstance(uses, list):
            out["expected_tool_trajectory"] = [
                {"name": use.get("name"), "args": use.get("args") or {}}
                if isinstance(use, dict)
                else use
                for use in uses
            ]
    return out


_NOT_NULL_SET_KEYS = ("name", "description", "eval_cases", "metadata")
_NOT_NULL_CASE_KEYS: tuple[str, ...] = ("name", "description", "conversation")
_NOT_NULL_CASE_KEYS += ("session_input", "tags", "metadata")
_NOT_NULL_SESSION_KEYS = ("app_name", "user_id", "state", "config")
_NOT_NULL_TURN_KEYS = ("invocation_id",)


def _drop_nulls(data: Any, keys: tuple[str, ...]) -> bool:
    if not isinstance(data, dict):
        return False
    nulls = [key for key in keys if key in data and data[key] is None]
    for key in nulls:
        del data[key]
    return bool(nulls)


def drop_adk_nulls(data: Any) -> bool:
    """Remove the ``null`` values ADK writes for its unset optional fields (``"name":
    null``, ``"session_input": null``, ...) where our field has a default instead, in
    place; returns whether anything was removed. Runs on parsed JSON (only when a file
    does not load as it is)."""
    changed = _drop_nulls(data, _NOT_NULL_SET_KEYS)
    cases = data.get("eval_cases") if isinstance(data, dict) else None
    for case in cases if isinstance(cases, list) else []:
        changed |= _drop_nulls(case, _NOT_NULL_CASE_KEYS)
        if not isinstance(case, dict):
            continue
        changed |= _drop_nulls(case.get("session_input"), _NOT_NULL_SESSION_KEYS)
        turns = case.get("conversation")
        for turn in turns if isinstance(turns, list) else []:
            changed |= _drop_nulls(turn, _NOT_NULL_TURN_KEYS)
    return changed
