"""Helpers for writing agent evaluation tests (pytest or plain asyncio).

``create_eval_app`` and ``run_eval`` are the two entry points most tests need::

    app, collector = create_eval_app(build_my_graph())
    report = await run_eval(app, collector, "tests/fixtures/my_agent.evalset.json")
    assert report.summary.pass_rate == 1.0
"""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.config import EvalConfig
from tenxeval_tui.evaluation.results import EvalReport


def create_eval_app(graph: Any, *, capture_all_events: bool = True) -> tuple[Any, Any]:
    """``(app, collector)`` ready for :class:`AgentEvaluator`.

    ``graph`` is an **uncompiled** 10xGraph ``StateGraph`` (compiled here with
    an in-memory checkpointer and the collector's callbacks, in a dependency
    container of its own so that other graphs of the process never interfere),
    or a plain agent: an async function ``(message, trace) -> reply`` or an
    object with ``ainvoke(message, trace)`` (see
    :mod:`tenxeval_tui.evaluation.targets.agent`). ``capture_all_events`` is
    forwarded to the :class:`TrajectoryCollector`. An already-compiled graph
    raises ``AttributeError``: pass the uncompiled graph.
    """
    from tenxeval_tui.evaluation.targets import make_eval_app

    return make_eval_app(graph, capture_all_events=capture_all_events)


async def run_eval(
    graph: Any,
    collector: Any,
    eval_set_path: str,
    config: EvalConfig | None = None,
    verbose: bool = False,
) -> EvalReport:
    """Evaluate ``graph`` (an app from :func:`create_eval_app`) on one eval set file.

    ``config`` defaults to ``EvalConfig.default()``.
    """
    from tenxeval_tui.evaluation.evaluator import AgentEvaluator

    evaluator = AgentEvaluator(graph, collector, config or EvalConfig.default())
    return await evaluator.evaluate(eval_set_path, verbose=verbose)
