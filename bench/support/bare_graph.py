"""The floor of a whole-process run of the echo graph: ``bench/support/echo_graph.py`` invoked
once per case, bare, through 10xGraph's own runtime in one process (compiled by its
``create_eval_app``, as its harness compiles it: checkpointer and trajectory callbacks), no
harness around it: no eval set read, no scoring, no report. Whatever either harness adds is
above this.

With ``--ours``, the same graph invoked as our runner invokes it, still without a harness:
compiled by our ``create_eval_app`` (a dependency container of the app's own, our
callbacks feeding our collector), each case captured by the collector and its thread
forgotten once it is done, as the worker does. A second floor, ours only: our runner's
graph path is cheaper than 10xGraph's (no publisher bound, lookups memoised, no thread
kept), so above this is what our harness adds.

Run: python bench/support/bare_graph.py CASES [--ours]
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


async def main_ours(cases: int) -> int:
    from tenxeval_tui.evaluation.targets import forget_thread, turn_input
    from tenxeval_tui.evaluation.testing import create_eval_app as our_eval_app

    logging.disable(logging.WARNING)
    app, collector = our_eval_app(build_graph(), capture_all_events=False)
    for i in range(cases):  # as our evaluator runs a one-turn case, without the harness
        config = {"thread_id": f"eval_bare_c{i}", "run_id": "bare", "user_id": ""}
        with collector.capture():
            await app.ainvoke(turn_input(app, f"m{i}"), config)
        await forget_thread(app, config)
    return 0


if __name__ == "__main__":
    run = main_ours if "--ours" in sys.argv[2:] else main
    sys.exit(asyncio.run(run(int(sys.argv[1]))))
