"""An offline plain-Python support agent (no framework): orders, refunds, small talk.

It reports what it does through the :class:`~tenxeval_tui.evaluation.Trace`
handle: a ``ROUTER`` node that picks a tool, the tool call with its arguments
and result, and an ``ANSWER`` node with the reply and its token usage. The
customer's name comes from the case's ``session_input.state``. A message
containing "outage" makes the order service fail, so the agent raises. When the order
lookup itself fails (a connection error or a timeout: what a fault in the case's
``metadata.tools`` injects), the agent tries once more, then apologises.
"""

from __future__ import annotations

import re

from tenxeval_tui.evaluation import Trace

ORDERS = {
    "A100": {"status": "shipped", "eta": "Friday"},
    "A200": {"status": "processing", "eta": "next week"},
    "A300": {"status": "delivered", "eta": "already delivered"},
}
_ORDER = re.compile(r"\b([A-Z]\d{3})\b")


class ServiceUnavailable(RuntimeError):
    """The order service did not answer."""


async def lookup_order(order_id: str) -> dict[str, str]:
    """The status of an order."""
    if order_id not in ORDERS:
        return {"status": "unknown", "eta": "unknown"}
    return dict(ORDERS[order_id])


def refund(order_id: str, reason: str) -> str:
    """Start a refund; returns its reference."""
    return f"R-{order_id}"


async def _lookup_with_retry(trace: Trace, order_id: str) -> dict[str, str] | None:
    """The order's status; a failed lookup is tried once more; ``None`` when both fail."""
    for _attempt in range(2):
        try:
            status: dict[str, str] = await trace.tool(
                "lookup_order", {"order_id": order_id}, lookup_order
            )
            return status
        except (ConnectionError, TimeoutError):
            continue
    return None


async def support_agent(message: str, trace: Trace) -> str:
    """Answer one customer message."""
    words = len(message.split())
    name = trace.state.get("customer_name", "there")
    text = message.lower()
    if "outage" in text:
        trace.node("ROUTER", tool_calls=["lookup_order"])
        raise ServiceUnavailable("order service timed out")
    order = _ORDER.search(message)
    if order is None and "order" in text:
        # A follow-up turn: reuse the order named earlier in this conversation.
        earlier = [_ORDER.search(m["content"]) for m in trace.history if m["role"] == "user"]
        order = next((m for m in reversed(earlier) if m is not None), None)
    if "refund" in text and order is not None:
        trace.node("ROUTER", tool_calls=["refund"], tokens={"input_tokens": words})
        reference = await trace.tool(
            "refund", {"order_id": order.group(1), "reason": "customer request"}, refund
        )
        reply = f"Your refund for order {order.group(1)} has started, reference {reference}."
    elif order is not None:
        trace.node("ROUTER", tool_calls=["lookup_order"], tokens={"input_tokens": words})
        status = await _lookup_with_retry(trace, order.group(1))
        reply = (
            f"Order {order.group(1)} is {status['status']}, expected {status['eta']}."
            if status is not None
            else f"Sorry, I cannot reach the order service to check order {order.group(1)} "
            "right now. Please try again in a few minutes."
        )
    elif text.startswith(("hello", "hi")):
        trace.node("ROUTER", tokens={"input_tokens": words})
        reply = f"Hello {name}! How can I help with your order?"
    else:
        trace.node("ROUTER", tokens={"input_tokens": words})
        reply = "I can help with orders and refunds."
    trace.node(
        "ANSWER",
        response=reply,
        tokens={"input_tokens": words + 20, "output_tokens": len(reply.split())},
    )
    return reply


# What the editor completes expected tool calls and node names from (see the README's
# "Completion from the agent's tools"): a plain agent declares them as attributes.
support_agent.tools = [lookup_order, refund]  # type: ignore[attr-defined]
support_agent.nodes = ["ROUTER", "ANSWER"]  # type: ignore[attr-defined]
