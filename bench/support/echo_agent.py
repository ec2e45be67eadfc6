"""A plain Python agent (no 10xGraph) that answers each message with itself: the agent of
the time-to-first-case figure for an agent that does not import 10xGraph
(``bench/vs_10xgraph.py``). With ``BENCH_FIRST_CASE`` set to a path, its first call writes
``time.time()`` there once, as ``bench/support/echo_graph.py`` does.
"""

from __future__ import annotations

import os
import time
from typing import Any

_first_case = os.environ.get("BENCH_FIRST_CASE")


async def agent(message: str, trace: Any) -> str:
    """The message itself."""
    global _first_case
    if _first_case:
        marker, _first_case = _first_case, None
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write(repr(time.time()))
    return message
