"""The agent's part of a run's provenance, worked out beside the agent's import.

A worker hashes the agent's code (:func:`~tenxeval_tui.evaluation.provenance.agent_part`)
as it finds it before importing the agent: the import may put folders on ``sys.path``,
which the walk reads. :meth:`AgentParts.start` is called for each agent before it is
imported: the walk runs in a forked copy of the worker (:mod:`.forked`), so the import
goes on meanwhile, on the other core. Where no fork can be made (pooled runs, whose
agents are imported elsewhere, or another thread running) it is worked out there and
then, as before. :meth:`AgentParts.get` gives what was found: the same as it would have
been without the fork (a child that gave nothing is made up for with the ``sys.path``
of the moment it was started).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from tenxeval_tui.evaluation.provenance.agent_provenance import AgentPart, agent_part
from tenxeval_tui.evaluation.provenance.imports_cache import default_cache
from tenxeval_tui.evaluation.provenance.versions_cache import default_versions_cache
from tenxeval_tui.runs.forked import Forked, ForkFailed

logger = logging.getLogger(__name__)


class _Started:
    """One agent's walk: forked, with the ``sys.path`` it started from."""

    def __init__(self, module: str, project: Path, forked: Forked[AgentPart]) -> None:
        self.module = module
        self.project = project
        self.path = list(sys.path)
        self.forked = forked

    def result(self) -> AgentPart:
        try:
            return self.forked.result()
        except ForkFailed as exc:
            logger.debug("agent part of %s worked out here: %s", self.module, exc)
            return agent_part(
                self.module,
                self.project,
                self.path,
                cache=default_cache(),
                versions_cache=default_versions_cache(),
            )


class AgentParts:
    """The agent parts of one worker's run, by ``(module, project)`` (see the module)."""

    def __init__(self, *, fork: bool = True) -> None:
        self.fork = fork
        self._parts: dict[tuple[str, str], AgentPart | _Started] = {}

    def start(self, module: str | None, project: Path) -> None:
        """Work out the part of the agent in ``module`` (imported from ``project``) from
        ``sys.path`` as it is now: call before importing the agent."""
        if not module or (key := (module, str(project))) in self._parts:
            return
        forked = Forked.start(lambda: _part(module, project)) if self.fork else None
        self._parts[key] = (
            _Started(module, project, forked) if forked is not None else _part(module, project)
        )

    def get(self, module: str | None, project: Path) -> AgentPart | None:
        """The part started for ``module`` and ``project``; ``None`` when none was."""
        if not module or (found := self._parts.get(key := (module, str(project)))) is None:
            return None
        if isinstance(found, _Started):
            found = self._parts[key] = found.result()
        return found


def _part(module: str, project: Path) -> AgentPart:
    """The agent's part, what each file of its code imports and the versions of what it
    imports kept on disk for the next run (a worker's first case waited for the parsing,
    and the versions' lookup took a share of its cores, issue #38)."""
    return agent_part(
        module, project, cache=default_cache(), versions_cache=default_versions_cache()
    )


__all__ = ["AgentParts"]
