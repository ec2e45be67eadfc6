"""A spare worker's start on its agent, before its plan comes (issue #38).

``tenxeval-tui run`` starts its worker child first (:mod:`~.spare_worker`); as soon as
its settings are read it tells the worker the agent (``--agent``), the folder it is
imported from and the environment (:func:`~.spare_worker.prepare_line`), then goes on
with its checks and scans. The worker, told, takes that environment (the judges'
variables the settings set are there before the agent's module runs), sets up its
logging as the plan will ask, starts the agent's part of the provenance (:mod:`.agent_parts`:
from ``sys.path`` as it is before the import) and imports the agent's module, while the
parent works. A module whose import fails is not imported again: the run, once its plan
comes, stops with the same error (:func:`~.child_setup.load_agents`).

The parent hands the plan to this worker only when the plan is the one it was prepared
for (the same agent, folder, environment and logging, :meth:`~.spare_worker.SpareWorker.hand`);
otherwise it starts a fresh one, so a run never runs with an agent imported otherwise than
its plan says.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.long_lived import long_lived_imports
from tenxeval_tui.runs.agent_parts import AgentParts
from tenxeval_tui.runs.child_setup import set_up_logging
from tenxeval_tui.runs.parent_watch import PARENT_PID_ENV

Logging = tuple[bool | None, str | None]
"""A worker's logging: the plan's ``verbose`` and ``log_level``."""


@dataclass
class EarlyAgent:
    """What a worker did before its plan came (see the module)."""

    parts: AgentParts = field(default_factory=AgentParts)
    failed: dict[str, Exception] = field(default_factory=dict)
    """Each agent spec whose import failed: its :class:`AgentLoadError`."""
    logging: Logging | None = None
    """How the logging was set up (``None``: not yet)."""

    def start(self, told: Mapping[str, Any], git_places: Sequence[str] = ()) -> None:
        """Set up the logging and start the agent's part of the provenance of the agent of
        ``told`` (:func:`~.spare_worker.prepare_line`'s fields), without importing it, and
        the git state of the provenance of each of ``git_places`` (the line's eval set
        paths; issue #38): a worker may do this before its event loop runs
        (:mod:`.spare_start`). Once only."""
        from tenxeval_tui.evaluation.provenance.git import start_git_state
        from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

        if self.logging is not None:
            return
        self.logging = (told["verbose"], told["log_level"])
        set_up_logging(*self.logging)
        try:
            module = parse_spec(str(told["agent"]))[0]
        except AgentLoadError:
            module = None  # the plan's load says so
        if module is not None:
            self.parts.start(module, Path(told["search_path"]))
        for place in git_places:
            if isinstance(place, str):
                start_git_state(place)

    def prepare(self, told: Mapping[str, Any], git_places: Sequence[str] = ()) -> None:
        """:meth:`start` (unless done), then import the agent of ``told``."""
        from tenxeval_tui.evaluation.targets.loader import (
            AgentLoadError,
            import_target,
            parse_spec,
        )

        self.start(told, git_places)
        spec, folder = str(told["agent"]), Path(told["search_path"])
        try:
            parse_spec(spec)
        except AgentLoadError:
            return  # the plan's load says so
        try:
            with long_lived_imports():  # the agent's modules live as long as the worker
                import_target(spec, cwd=folder)
        except AgentLoadError as exc:
            self.failed[spec] = exc


def take_environment(env: Mapping[str, str]) -> None:
    """Make ``env`` this process's environment, its new ``PYTHONPATH`` folders on
    ``sys.path`` after the script's folder (where ``PYTHONPATH`` puts them)."""
    before = set(os.environ.get("PYTHONPATH", "").split(os.pathsep))
    env = {k: v for k, v in env.items() if k != PARENT_PID_ENV}  # read once, at the start
    for name in set(os.environ) - set(env):
        del os.environ[name]
    os.environ.update(env)
    added = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p not in before]
    sys.path[1:1] = added


__all__ = ["EarlyAgent", "Logging", "take_environment"]
