"""A spare worker's start, ``python -m tenxeval_tui.runs.spare_start`` (issue #38).

A spare worker (:mod:`.spare_worker`) starts before its parent knows the run; the parent
tells it the agent (the prepare line) once its settings are read, while the worker imports
what every run needs. Started as the worker module, it read that line only once every one
of its imports was done, so the agent's code hash (:mod:`.agent_parts`, worked out in a
forked child beside the rest) started late and a 1-case run's first case waited for it.

Here the imports go a step at a time (:data:`IMPORT_STEPS`), stdin looked at between
them: once the first line has come and the hash's own modules are in, that line's
environment is taken and the hash is started (:meth:`~.early_agent.EarlyAgent.start`:
the logging set up first, ``sys.path`` as it is before the agent's import), while the
rest is imported. The worker's spare path (:func:`~.worker.spare_main`) then goes on with
that line (the agent's import, in the event loop its cases run in) and the ones after it,
as it would have.

Only the standard library (and :mod:`.parent_watch`) is imported at module level.
"""

from __future__ import annotations

import importlib
import json
import select
import sys
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.long_lived import long_lived_imports
from tenxeval_tui.runs.parent_watch import die_with_parent

if TYPE_CHECKING:
    from tenxeval_tui.runs.early_agent import EarlyAgent

SHARED_STEPS = (
    "pydantic_core",
    "pydantic.main",  # ``import pydantic`` alone imports next to nothing
    "pydantic.types",
    "tenxeval_tui.evaluation.dataset.selection",  # the first models: pydantic's plugin lookup
    "tenxeval_tui.evaluation.dataset.eval_set",
    "tenxeval_tui.evaluation.eval_result",
    "tenxeval_tui.evaluation.observers",
    "tenxeval_tui.evaluation.config.eval_config",
    "tenxeval_tui.runs.plan",  # the parent builds the plan, the worker reads it
    "tenxeval_tui.evaluation.execution.result",  # the parent's journal reader, the cases
    "tenxeval_tui.runs.case_scan",  # the eval sets' cases: scanned, then read
    "tenxeval_tui.evaluation.results.journal",
    "tenxeval_tui.evaluation.criteria",  # the config's criteria: checked, then scored
    "tenxeval_tui.evaluation.targets.loader",  # the agent's spec: checked, then loaded
)
"""The steps of :data:`IMPORT_STEPS` that a run's parent imports too before it hands its
worker the plan (its checks read the eval sets and the config, it builds the plan, scans
the cases and reads the journal back): a worker forked from the parent
(:mod:`.forked_spare`) has them imported before the fork, once for both (a sixth of a
second of CPU each; the plan, the cases' scan, the journal, the criteria and the agent's
loader another 0.02 s, which both processes spent after the fork on the same two
cores as the agent's hash; ``tests/cli/test_forked_spare.py`` checks the parent still
imports them and that neither imports these again)."""

IMPORT_STEPS = (
    "tenxeval_tui.runs.early_agent",  # the hash's modules: neither pydantic nor the models
    "tenxeval_tui.runs.protocol_lines",
    "asyncio",
    *SHARED_STEPS,
    "tenxeval_tui.evaluation.agent_evaluator",
    "tenxeval_tui.runs.streamed_run",
    "tenxeval_tui.runs.worker",
)
"""What a spare worker imports before its event loop, in this order; the first step is
what starting the agent's hash needs. Steps of a few hundredths of a second each (a
step's own imports come in with it): the prepare line, looked for between them, is taken
soon after it comes, not once the models are all in."""


def _line_waiting() -> bool:
    """Whether stdin has something to read now (a line, or its end)."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(ready)


def _started_on(line: str, early: EarlyAgent) -> None:
    """When ``line`` is a prepare line: its environment taken, the agent's hash started.
    Anything else is left to the worker, which reads the line again."""
    from tenxeval_tui.runs.early_agent import take_environment
    from tenxeval_tui.runs.spare_worker import GIT_PLACES_KEY, PREPARE_KEY

    try:
        handed: Any = json.loads(line)
        told, env = handed[PREPARE_KEY], handed["env"]
        take_environment(env)
        early.start(told, handed.get(GIT_PLACES_KEY) or ())
    except (ValueError, KeyError, TypeError):
        return  # not a prepare line, or a bad one: the worker tells


def main() -> int:
    """Import what a run needs, starting the agent's hash as soon as it is told (see the
    module), then run as a spare worker; the exit status."""
    with long_lived_imports():  # what they build lives as long as the worker
        importlib.import_module(IMPORT_STEPS[0])
        from tenxeval_tui.runs.early_agent import EarlyAgent
        from tenxeval_tui.runs.protocol_lines import ProtocolLines, protocol_stream

        out = ProtocolLines(protocol_stream())  # before the hash's fork, as in the worker
        early = EarlyAgent()
        first: str | None = None
        for name in IMPORT_STEPS:
            if first is None and _line_waiting():
                first = sys.stdin.readline()
                if first:
                    _started_on(first, early)
            importlib.import_module(name)
    from tenxeval_tui.runs.worker import spare_main

    return spare_main(out, early, first)


def _main_then_exit() -> None:
    """:func:`main`, then the process ends with its status, as a worker's does."""
    die_with_parent()  # first: a parent killed during the imports takes this worker along
    from tenxeval_tui.runs.child_setup import run_then_exit

    run_then_exit(main)


if __name__ == "__main__":
    _main_then_exit()
