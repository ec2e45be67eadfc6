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
