"""The trivial agent both harnesses run in ``bench/vs_10xgraph.py``: a 10xGraph graph of
one scripted model node that answers each user message with the message itself (zero
latency, no tool, no real model).

With ``BENCH_FIRST_CASE`` set to a path, the first call writes ``time.time()`` there once:
the time to first case, seen from outside either harness the same way.
"""

from __future__ import annotations

import os
import time
from typing import Any

from tenxgraph.core.graph import StateGraph
from tenxgraph.core.state import AgentState
from tenxgraph.qa.testing import TestAgent
from tenxgraph.runtime.adapters.llm.model_response_converter import ModelResponseConverter
from tenxgraph.utils.constants import END

from sample_evals.weather_graph import ScriptedConverter, ScriptedReply

_first_case = os.environ.get("BENCH_FIRST_CASE")


class EchoModel(TestAgent):
    """Answers the last message with its own text."""

    async def execute(self, state: AgentState, config: dict[str, Any]) -> ModelResponseConverter:
        global _first_case
        if _first_case:
            marker, _first_case = _first_case, None
            with open(marker, "w", encoding="utf-8") as handle:
                handle.write(repr(time.time()))
        text = state.context[-1].text() if state.context else ""
        return ModelResponseConverter(ScriptedReply(text, [], 1), converter=ScriptedConverter())


def build_graph() -> StateGraph:
    """The echo agent, uncompiled: ``MAIN`` then the end."""
    graph = StateGraph()
    graph.add_node("MAIN", EchoModel())
    graph.add_edge("MAIN", END)
    graph.set_entry_point("MAIN")
    return graph
