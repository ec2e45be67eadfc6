"""A run's provenance, worked out once by the worker for every eval set it runs.

The worker is the one execution path of every front end (the CLI, the workbench, with
one evaluator, ``--workers`` processes or Ray actors), so the provenance of every report
is made here, from the plan: each eval set file as it is on disk (all of its cases, not
only those selected), the agent spec the set runs with (its module, found from the
plan's search path), the resolved config. It goes into the run journal's ``run_start``
lines, which the CLI's reports are made from, and onto the reports the worker writes.
See :mod:`tenxeval_tui.evaluation.provenance` for what it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import PROVENANCE_KEY, EvalReport
from tenxeval_tui.evaluation.provenance import run_provenance
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY
from tenxeval_tui.evaluation.targets.loader import AgentLoadError, agent_spec_for, parse_spec
from tenxeval_tui.runs.agent_parts import AgentParts
from tenxeval_tui.runs.plan import RunPlan

Provenances = dict[str, dict[str, Any]]
"""``eval_set_id -> metadata.provenance`` (a later file of the same id wins)."""


def agent_module(plan: RunPlan, eval_set: EvalSet) -> str | None:
    """The module of the agent ``eval_set`` runs with in ``plan``; ``None`` when it has
    none or a malformed one (told when the agent loads; the run stops there)."""
    try:
        return parse_spec(agent_spec_for(eval_set, plan.agent, explicit=plan.agent_explicit))[0]
    except AgentLoadError:
        return None


def project_of(plan: RunPlan) -> Path:
    """The folder ``plan``'s agents are imported from (the current one by default)."""
    return plan.search_path or Path.cwd()


def start_agent_parts(
    plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]], parts: AgentParts
) -> None:
    """Start working out the agent part of each eval set of ``loaded`` (before the
    agents are imported: see :mod:`.agent_parts`)."""
    for _, eval_set in loaded:
        parts.start(agent_module(plan, eval_set), project_of(plan))


def plan_provenance(
    plan: RunPlan,
    config: EvalConfig,
    loaded: Sequence[tuple[Path, EvalSet]],
    hashes: Mapping[Path, str] | None = None,
    parts: AgentParts | None = None,
) -> Provenances:
    """The provenance of each eval set file of ``plan`` (``loaded``: each file with all of
    its cases, or scanned when ``hashes`` has the file's content hash), by eval set id;
    ``parts``: the agents' parts started already (:func:`start_agent_parts`)."""
    found: Provenances = {}
    for path, eval_set in loaded:
        module = agent_module(plan, eval_set)
        found[eval_set.eval_set_id] = run_provenance(
            eval_set,
            config,
            eval_set_file=path,
            agent_module=module,
            project=project_of(plan),
            eval_set_hash=(hashes or {}).get(path),
            agent=parts.get(module, project_of(plan)) if parts is not None else None,
        )
    return found


def journal_metadata(
    provenances: Provenances, selections: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """What the run journal writes on each eval set's ``run_start`` line: its provenance,
    and its ``metadata.selection`` when the run is of some of its cases (``selections``)."""
    found = {set_id: {PROVENANCE_KEY: value} for set_id, value in provenances.items()}
    for set_id, mark in (selections or {}).items():
        found.setdefault(set_id, {})[SELECTION_KEY] = dict(mark)
    return found


def with_provenance(
    reports: Sequence[EvalReport], provenances: Mapping[str, Mapping[str, Any]]
) -> list[EvalReport]:
    """``reports``, each with its eval set's provenance in ``metadata.provenance``."""
    return [
        r.model_copy(
            update={"metadata": {**r.metadata, PROVENANCE_KEY: dict(provenances[r.eval_set_id])}}
        )
        if r.eval_set_id in provenances
        else r
        for r in reports
    ]


__all__ = [
    "Provenances",
    "agent_module",
    "journal_metadata",
    "plan_provenance",
    "project_of",
    "start_agent_parts",
    "with_provenance",
]
