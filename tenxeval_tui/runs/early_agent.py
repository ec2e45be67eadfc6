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

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.runs.agent_parts import AgentParts
from tenxeval_tui.runs.child_setup import set_up_logging

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

    def prepare(self, told: Mapping[str, Any]) -> None:
        """Set up the logging, start the agent's part of the provenance and import the
        agent of ``told`` (:func:`~.spare_worker.prepare_line`'s fields)."""
        from tenxeval_tui.evaluation.targets.loader import (
            AgentLoadError,
            import_target,
            parse_spec,
        )

        self.logging = (told["verbose"], told["log_level"])
        set_up_logging(*self.logging)
        spec, folder = str(told["agent"]), Path(told["search_path"])
        try:
            module = parse_spec(spec)[0]
        except AgentLoadError:
            return  # the plan's load says so
        self.parts.start(module, folder)
        try:
            import_target(spec, cwd=folder)
        except AgentLoadError as exc:
            self.failed[spec] = exc


__all__ = ["EarlyAgent", "Logging"]
