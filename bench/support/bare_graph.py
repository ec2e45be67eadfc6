"""The floor of a whole-process run of the echo graph: ``bench/support/echo_graph.py`` invoked
once per case, bare, through 10xGraph's own runtime in one process (compiled by its
``create_eval_app``, as its harness compiles it: checkpointer and trajectory callbacks), no
harness around it: no eval set read, no scoring, no report. Whatever either harness adds is
above this.

Run: python bench/support/bare_graph.py CASES
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tenxgraph.core.state import Message
from tenxgraph.qa.evaluation import create_eval_app

from bench.support.echo_graph import build_graph


async def main(cases: int) -> int:
    logging.disable(logging.WARNING)
    app, collector = create_eval_app(build_graph())
    for i in range(cases):  # as 10xGraph's evaluator runs a one-turn case
        collector.reset()
        message = Message.text_message(f"m{i}", role="user")
        await app.ainvoke({"messages": [message]}, config={"thread_id": f"eval_bare_c{i}"})
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]))))
