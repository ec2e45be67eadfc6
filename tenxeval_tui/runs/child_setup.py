"""What every child process that runs cases shares: its exit status and exit, its
logging, and its agents loaded once per spec.

The run worker (:mod:`~tenxeval_tui.runs.worker`), the process pool's workers
(:mod:`~tenxeval_tui.runs.pool_worker`), Ray's actors (:mod:`~tenxeval_tui.runs.ray_backend`)
and the chat worker (:mod:`~tenxeval_tui.runs.chat_worker`) all start this way; it lives
here, below all of them, so none of them imports another's entry point.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.runs.shown_paths import shown_path

if TYPE_CHECKING:  # a spare worker sets up its logging before it imports them
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.runs.plan import RunPlan

ERROR_EXIT = 3
"""The exit status of a child whose agent, eval set or config could not be loaded."""


def load_agents(
    plan: RunPlan,
    files_and_sets: Sequence[tuple[Path, EvalSet]],
    failed_early: Mapping[str, Exception] | None = None,
) -> list[tuple[Any, Any, EvalSet]]:
    """``(app, collector, eval_set)`` for each eval set, each agent loaded once.

    The run's agent is the default; an eval set naming its own (``metadata.agent``) runs
    with that one. An :class:`AgentLoadError` of an eval set's own agent names its file.
    ``failed_early``: the agents whose import failed already (a spare worker imports its
    agent before its plan comes, :mod:`~.early_agent`), by spec: their error again, not a
    second import.
    """
    from tenxeval_tui.evaluation.targets.loader import (
        EVAL_SET_AGENT_KEY,
        AgentLoadError,
        agent_spec_for,
        load_agent,
    )

    pairs: dict[str, tuple[Any, Any]] = {}
    evaluations: list[tuple[Any, Any, EvalSet]] = []
    for path, eval_set in files_and_sets:
        try:
            spec = agent_spec_for(eval_set, plan.agent, explicit=plan.agent_explicit)
            if failed_early and spec in failed_early:
                raise failed_early[spec]
            if spec not in pairs:
                # The events are streamed as they come (and journalled): the collector
                # need not keep each raw event of a case as well (a kB or so each).
                app, collector = load_agent(
                    spec,
                    cwd=plan.search_path,
                    capture_all_events=False,
                    params=plan.agent_params or None,
                )
                # Nor a copy of the last case's steps: its result is streamed and journalled.
                collector.keep_last_case = False
                # Nor each finished case's conversation thread (a graph's checkpointed state).
                collector.keep_threads = False
                # Nor the two report views of each node response: the journal and the
                # reports make them as they write them (see evaluation/results/node_views.py).
                collector.defer_node_views = True
                pairs[spec] = (app, collector)
        except AgentLoadError as exc:
            if plan.agent_explicit or EVAL_SET_AGENT_KEY not in eval_set.metadata:
                raise
            raise AgentLoadError(None, f"{path}: metadata.agent: {exc}") from None
        evaluations.append((*pairs[spec], eval_set))
    return evaluations


NOT_RUN = "worker_not_run"
"""The protocol line of the eval sets a run leaves out: ``sets``, each ``path``,
``eval_set_id`` and ``problem`` (see :func:`split_agentless`)."""


def split_agentless(
    plan: RunPlan, files_and_sets: Sequence[tuple[Path, EvalSet]]
) -> tuple[list[tuple[Path, EvalSet]], list[tuple[Path, str, str]]]:
    """The eval sets an agent runs, and ``(path, eval_set_id, problem)`` of each with no
    agent at all: the run has none and the set names none (``metadata.agent``). Those a
    folder scan found are left out, not run, so the others run; :class:`AgentLoadError`
    naming each file when one of them was named by the user (``plan.named_eval_sets``: it
    was asked for, and a pass without it would not be one) or when none is left (nothing
    could run). A set naming a malformed agent is kept: loading it says what is wrong with
    it."""
    from tenxeval_tui.evaluation.targets.loader import (
        EVAL_SET_AGENT_KEY,
        AgentLoadError,
        agent_spec_for,
    )

    if plan.agent:
        return list(files_and_sets), []
    kept: list[tuple[Path, EvalSet]] = []
    agentless: list[tuple[Path, str, str]] = []
    for path, eval_set in files_and_sets:
        own = eval_set.metadata.get(EVAL_SET_AGENT_KEY)
        if isinstance(own, str) and own.strip():
            kept.append((path, eval_set))
            continue
        try:
            agent_spec_for(eval_set, plan.agent, explicit=plan.agent_explicit)
        except AgentLoadError as exc:
            agentless.append((path, eval_set.eval_set_id, str(exc)))
    named = set(plan.named_eval_sets)
    stopping = [one for one in agentless if one[0] in named] or (agentless if not kept else [])
    if stopping:
        raise AgentLoadError(
            None,
            "\n".join(
                f"{shown_path(path, Path.cwd())}: {problem}" for path, _, problem in stopping
            ),
        )
    return kept, agentless


def not_run_sets(line: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(path, problem)`` of each eval set a ``worker_not_run`` line names."""
    found = line.get("sets")
    return [
        (str(one.get("path", "")), str(one.get("problem", "")))
        for one in (found if isinstance(found, list) else [])
        if isinstance(one, dict)
    ]


def set_up_logging(verbose: bool | None, level: str | None = None) -> None:
    """``level`` (a level name): records from that level up on stderr. Else ``verbose``:
    INFO records on stderr; ``False``: none but critical; ``None``: as it is."""
    import logging

    from tenxeval_tui.evaluation.redact import RedactingFormatter

    if level or verbose:
        handler = logging.StreamHandler()
        # A judge endpoint's credentials never reach a log line (see evaluation/redact.py).
        handler.setFormatter(RedactingFormatter("%(levelname)s %(name)s: %(message)s"))
        logging.basicConfig(
            level=level.upper() if level else logging.INFO, handlers=[handler], force=bool(level)
        )
    elif verbose is False:
        # Agents' frameworks log errors with tracebacks; the report already says what failed.
        logging.getLogger().addHandler(logging.NullHandler())
        logging.getLogger().setLevel(logging.CRITICAL)


def run_then_exit(main: Callable[[], int]) -> None:
    """``main()``, then the process ends with its status (:func:`exit_now`): a
    ``SystemExit`` that escaped the run (raised where no case could catch it) gives its
    code, anything else is printed and gives 1."""
    try:
        code = main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    exit_now(code)


def exit_now(code: int) -> None:
    """End the process with ``code`` now: stdio flushed, no wait for the threads an agent
    left running (a non-daemon thread would keep the worker alive for ever)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
