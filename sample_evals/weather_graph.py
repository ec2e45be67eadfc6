"""An offline 10xGraph weather agent: a scripted model and a ``get_weather`` tool.

The graph is ``MAIN -> TOOL -> MAIN``: the model (a scripted stand-in that reads
the conversation and decides like a real one would) asks for ``get_weather``
when the user names a city, the tool node runs it, and the model answers from
the tool's result (or, when the tool failed, says it could not get that city's
weather). Messages containing "crash" make the model raise, as a model backend outage
would. Every reply reports token usage (words in and out).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from tenxgraph.core.graph import StateGraph
from tenxgraph.core.graph.tool_node import ToolNode
from tenxgraph.core.state import AgentState
from tenxgraph.core.state.message import Message, TokenUsages
from tenxgraph.core.state.message_block import ToolCallBlock
from tenxgraph.qa.testing import TestAgent
from tenxgraph.runtime.adapters.llm.base_converter import BaseConverter
from tenxgraph.runtime.adapters.llm.model_response_converter import ModelResponseConverter
from tenxgraph.utils.constants import END

FORECASTS = {
    "paris": "sunny, 21°C",
    "london": "rainy, 14°C",
    "tokyo": "cloudy, 18°C",
    "berlin": "windy, 12°C",
    "rome": "sunny, 26°C",
    "oslo": "snowing, -3°C",
}
_TOOL_FAILED = "Internal execution error"  # how 10xGraph hands the model a tool's error
_CITY = re.compile(r"(?:weather in|about|in) ([A-Z][a-zA-Z]+(?: [A-Z][a-zA-Z]+)*)")


def get_weather(location: str) -> str:
    """Current weather for a city."""
    if location.lower() == "atlantis":
        raise ValueError(f"no weather station in {location}")
    return FORECASTS.get(location.lower(), "clear, 20°C")


class ScriptedReply:
    """What the scripted model answers: text, or tool calls, with token counts."""

    def __init__(self, text: str, tool_calls: list[dict[str, Any]], tokens_in: int) -> None:
        self.text = text
        self.tool_calls = tool_calls
        self.tokens_in = tokens_in


class ScriptedConverter(BaseConverter):
    """Turns a :class:`ScriptedReply` into an assistant message with tool calls and usage."""

    async def convert_response(self, response: ScriptedReply) -> Message:
        message = Message.text_message(response.text, role="assistant")
        tokens_out = len(response.text.split()) + 5 * len(response.tool_calls)
        message.usages = TokenUsages(
            prompt_tokens=response.tokens_in,
            completion_tokens=tokens_out,
            total_tokens=response.tokens_in + tokens_out,
        )
        if response.tool_calls:
            message.tools_calls = response.tool_calls
            for call in response.tool_calls:
                function = call["function"]
                message.content.append(
                    ToolCallBlock(
                        id=call["id"], name=function["name"], args=json.loads(function["arguments"])
                    )
                )
        return message

    async def convert_streaming_response(  # type: ignore[override]
        self, config: dict[str, Any], node_name: str, response: ScriptedReply, meta: Any = None
    ) -> Any:
        yield await self.convert_response(response)


class WeatherModel(TestAgent):
    """A scripted chat model: decides from the conversation alone (safe to run concurrently)."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__(tools=[get_weather])
        self.delay = delay

    def decide(self, messages: list[dict[str, Any]]) -> ScriptedReply:
        tokens_in = sum(len(str(m.get("content", "")).split()) for m in messages)
        last = messages[-1] if messages else {"role": "user", "content": ""}
        if last["role"] == "tool":
            return ScriptedReply(_report(messages), [], tokens_in)
        text = str(last.get("content", ""))
        if "crash" in text.lower():
            raise RuntimeError("model backend unavailable")
        cities = _CITY.findall(text)
        if "weather" in text.lower() or text.lower().startswith(("what about", "and in")):
            if cities:
                calls = [
                    {
                        "id": f"call_{index}_{city.lower().replace(' ', '_')}",
                        "type": "function",
                        "function": {
                            "name": "get_weather",
                            "arguments": json.dumps({"location": city}),
                        },
                    }
                    for index, city in enumerate(cities)
                ]
                return ScriptedReply("", calls, tokens_in)
            return ScriptedReply("Which city would you like the weather for?", [], tokens_in)
        if text.lower().startswith(("hello", "hi")):
            return ScriptedReply("Hi! I can tell you the weather in any city.", [], tokens_in)
        return ScriptedReply("Sorry, I can only help with the weather.", [], tokens_in)

    async def execute(self, state: AgentState, config: dict[str, Any]) -> ModelResponseConverter:
        messages = [_as_dict(m) for m in state.context]
        if self.delay:
            await asyncio.sleep(self.delay)
        return ModelResponseConverter(self.decide(messages), converter=ScriptedConverter())


def _as_dict(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {"role": message.role, "content": message.text()}
    if message.tools_calls:
        data["tool_calls"] = message.tools_calls
    return data


def _report(messages: list[dict[str, Any]]) -> str:
    """One sentence per city asked for in the last round of tool calls."""
    results: list[str] = []
    for message in reversed(messages):
        if message["role"] == "tool":
            results.insert(0, str(message["content"]))
            continue
        calls = message.get("tool_calls") or []
        cities = [json.loads(c["function"]["arguments"]).get("location", "?") for c in calls]
        return " ".join(
            f"Sorry, I could not get the weather in {city} right now."
            if result.startswith(_TOOL_FAILED)
            else f"The weather in {city} is {result}."
            for city, result in zip(cities, results, strict=False)
        )
    return ""


def _route(state: AgentState) -> str:
    last = state.context[-1] if state.context else None
    if last is not None and last.role == "assistant" and last.tools_calls:
        return "TOOL"
    return END


def build_graph(delay: float = 0.0) -> StateGraph:
    """The weather agent, uncompiled; ``delay`` seconds per model call (for benchmarks)."""
    graph = StateGraph()
    graph.add_node("MAIN", WeatherModel(delay=delay))
    graph.add_node("TOOL", ToolNode([get_weather]))
    graph.add_conditional_edges("MAIN", _route, {"TOOL": "TOOL", END: END})
    graph.add_edge("TOOL", "MAIN")
    graph.set_entry_point("MAIN")
    return graph
