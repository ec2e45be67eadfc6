"""Fakes of the support agent's tools (``sample_evals.plain_agent``), named in
``support_tools.evalset.json``'s ``metadata.tools.fakes``.

A fake gets the call (``call.name``, ``call.args``, ``call.number``: which call of the tool
in the case) and the case's state, shared by the case's fakes and checked after it by the
``tool_end_state`` criterion. Nothing here touches a real system.
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.tools import ToolCallInfo


def refund(call: ToolCallInfo, state: dict[str, Any]) -> str:
    """Record the refund in the case's state; its reference, as the real service gives it."""
    order_id = str(call.args["order_id"])
    state.setdefault("refunds", []).append(
        {"order_id": order_id, "reason": call.args.get("reason", "")}
    )
    return f"R-{order_id}"
