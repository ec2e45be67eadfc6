"""Where a report came from: its ``metadata.provenance`` and each case's ``case_sha256``.

A report's ``metadata.provenance`` holds (see :func:`run_provenance`):

- ``git_commit``, ``git_dirty``, ``git_branch``: the git state of the repository holding
  the eval set file (else the agent's project folder, else the current folder); ``None``
  where there is no repository or no ``git`` (:mod:`.git`);
- ``eval_set_sha256``: the eval set's content hash, every case of the file, whatever
  the run selected (:mod:`.hashing`);
- ``agent_module`` and ``agent_sha256``: the agent's module and the hash of its code
  (:mod:`.agent_code` says exactly which files); ``None`` when the agent's module is
  not known (an in-process run of a 10xGraph graph; set
  :attr:`AgentEvaluator.agent_module` there);
- ``config_sha256``: the hash of the config's outcome-changing fields;
- ``judge_models``: ``criterion -> model`` of the judged criteria;
- ``versions``: ``tenxeval-tui``, ``python`` and every installed distribution the
  agent's code imports (``10xgraph`` for a 10xGraph agent).

Each case result's ``metadata.case_sha256`` is its case's content hash, taken before the
case ran. :func:`~.hashing.case_fingerprint` joins the hashes a case's result depends
on. Reports without provenance (older ones, 10xGraph's) load as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.provenance.agent_code import AgentCode, agent_code
from tenxeval_tui.evaluation.provenance.agent_provenance import (
    OWN_DISTRIBUTION as OWN_DISTRIBUTION,
)
from tenxeval_tui.evaluation.provenance.agent_provenance import (
    AgentPart,
    agent_part,
    versions,
)
from tenxeval_tui.evaluation.provenance.agent_provenance import (
    _version as _version,  # a test reads a distribution's version as versions() does
)
from tenxeval_tui.evaluation.provenance.git import GitError, GitState, file_at_ref, git_state
from tenxeval_tui.evaluation.provenance.hashing import (
    canonical_json,
    case_fingerprint,
    case_sha256,
    config_sha256,
    eval_set_sha256,
    judge_models,
    sha256_json,
)

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.evaluation.eval_result import (
        CASE_SHA256_KEY,
        EVAL_SET_HASH_KEY,
        PROVENANCE_KEY,
        combined_provenance,
    )

_FROM_RESULTS = frozenset(
    {"CASE_SHA256_KEY", "EVAL_SET_HASH_KEY", "PROVENANCE_KEY", "combined_provenance"}
)
"""Names of the results' module this package gives too: loaded on first use, so that the
agent's part (:mod:`.agent_provenance`, which a run's worker starts on before it has imported
the core's models) imports none of them (issue #38)."""


def __getattr__(name: str) -> Any:
    if name in _FROM_RESULTS:
        from tenxeval_tui.evaluation import eval_result

        return getattr(eval_result, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_provenance(
    eval_set: EvalSet,
    config: EvalConfig,
    *,
    eval_set_file: str | Path | None = None,
    agent_module: str | None = None,
    project: str | Path | None = None,
    eval_set_hash: str | None = None,
    agent: AgentPart | None = None,
) -> dict[str, Any]:
    """The ``metadata.provenance`` of a run of ``eval_set`` (all of it, as in its file)
    with ``config``, its agent in ``agent_module`` imported from ``project``.
    ``eval_set_hash``: the eval set's :func:`~.hashing.eval_set_sha256` when the caller
    has it (a run's worker hashes its files as it reads them: ``eval_set``'s cases are
    then not read). ``agent``: :func:`agent_part` of ``agent_module`` and ``project``
    when the caller has it (a run's worker works it out beside the agent's import).

    Never raises: a part that cannot be found out is ``None`` (and logged).
    """
    from tenxeval_tui.evaluation.eval_result import EVAL_SET_HASH_KEY

    if agent is None or agent.module != agent_module:
        agent = agent_part(agent_module, project)
    where = eval_set_file or project or Path.cwd()
    git = git_state(where)
    return {
        "git_commit": git.commit,
        "git_dirty": git.dirty,
        "git_branch": git.branch,
        EVAL_SET_HASH_KEY: eval_set_hash or eval_set_sha256(eval_set),
        "agent_module": agent_module,
        "agent_sha256": agent.sha256,
        "config_sha256": config_sha256(config),
        "judge_models": judge_models(config),
        "versions": dict(agent.versions),
    }


def result_fingerprint(
    provenance: Mapping[str, Any], case_sha256: str, cassette_sha256: str | None = None
) -> str | None:
    """The :func:`~.hashing.case_fingerprint` of a case result in a report: its
    ``metadata.case_sha256`` with the report's ``metadata.provenance``. ``None`` when the
    report records no config hash (a report from before provenance): it matches nothing."""
    config = provenance.get("config_sha256")
    if not isinstance(config, str):
        return None
    return case_fingerprint(
        case_sha256,
        provenance.get("agent_sha256"),
        config,
        provenance.get("judge_models") or {},
        cassette_sha256,
    )


__all__ = [
    "CASE_SHA256_KEY",
    "EVAL_SET_HASH_KEY",
    "PROVENANCE_KEY",
    "AgentCode",
    "AgentPart",
    "GitError",
    "GitState",
    "agent_code",
    "agent_part",
    "canonical_json",
    "case_fingerprint",
    "case_sha256",
    "combined_provenance",
    "config_sha256",
    "eval_set_sha256",
    "file_at_ref",
    "git_state",
    "judge_models",
    "result_fingerprint",
    "run_provenance",
    "sha256_json",
    "versions",
]
