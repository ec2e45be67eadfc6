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

import functools
import importlib.metadata
import importlib.util
import logging
import platform
import site
import sysconfig
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import (
    CASE_SHA256_KEY,
    EVAL_SET_HASH_KEY,
    PROVENANCE_KEY,
    combined_provenance,
)
from tenxeval_tui.evaluation.provenance.agent_code import AgentCode, agent_code
from tenxeval_tui.evaluation.provenance.distributions import (
    DeclaredDistributions,
    packages_distributions,
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
from tenxeval_tui.evaluation.provenance.imports_cache import ImportsCache

logger = logging.getLogger("tenxeval_tui.evaluation.provenance")

OWN_DISTRIBUTION = "tenxeval-tui"


def versions(imports: Iterable[str] = ()) -> dict[str, str]:
    """``tenxeval-tui``'s, Python's and the versions of the installed distributions
    providing the top-level modules ``imports`` (those not installed are left out)."""
    found = {OWN_DISTRIBUTION: _version(OWN_DISTRIBUTION), "python": platform.python_version()}
    for name in sorted(set(imports)):
        own = _version(name)  # most distributions are named as their module: no scan
        for dist in [name] if own else _providers_of(name):
            found.setdefault(dist, _version(dist))
    return {name: version for name, version in found.items() if version}


def _providers_of(module: str) -> list[str]:
    """The distributions providing the top-level ``module``: those whose ``top_level.txt``
    names it; else, for a module installed in a site folder, what a scan of every
    installed distribution's files finds; else (a module of the agent's project) none."""
    declared = _declared_providers().providers(module)
    if declared is not None:
        return declared
    return _providers().get(module, []) if _installed(module) else []


@functools.cache
def _declared_providers() -> DeclaredDistributions:
    """The installed distributions' ``top_level.txt`` files, read once a process."""
    return DeclaredDistributions()


@functools.cache
def _providers() -> Mapping[str, list[str]]:
    """Top-level module -> the distributions providing it. Scanning every installed
    distribution takes a few hundredths of a second (see :mod:`.distributions`): done
    once a process, when a module is not named as its distribution."""
    return packages_distributions()


def _installed(module: str) -> bool:
    """Whether the top-level ``module`` is found in a site folder (not the project's)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    places = [spec.origin, *(spec.submodule_search_locations or [])]
    sites = _site_folders()
    return any(
        place and any(Path(place).is_relative_to(site) for site in sites) for place in places
    )


@functools.cache
def _site_folders() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    found = {
        paths["purelib"],
        paths["platlib"],
        *site.getsitepackages(),
        site.getusersitepackages(),
    }
    return tuple(Path(folder) for folder in found if folder)


def _version(distribution: str) -> str:
    """``importlib.metadata.version(distribution)`` (``""``: not installed), read from the
    metadata's header lines alone: parsing the whole file as an e-mail message (a long
    description and all) was most of the cost of a run's ``versions`` (issue #38)."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    for line in text.splitlines():
        if not line.strip():  # the headers end: the description follows
            break
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() == "version":
            return value.strip()
    return dist.version or ""


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


@dataclass(frozen=True, slots=True)
class AgentPart:
    """What a provenance holds of the agent's code: its module, the code's hash and the
    versions (``tenxeval-tui``'s, Python's, those of the distributions the code imports)."""

    module: str | None
    sha256: str | None
    versions: dict[str, str]


def agent_part(
    module: str | None,
    project: str | Path | None,
    path: Sequence[str] | None = None,
    *,
    cache: ImportsCache | None = None,
) -> AgentPart:
    """The :class:`AgentPart` of the agent in ``module`` imported from ``project``, its
    code found on the import path ``path`` (default ``sys.path`` as it is now: before the
    agent's import, which may change it). ``cache``: what each file of the code imports,
    kept on disk between runs (:mod:`.imports_cache`). Never raises (a code that cannot be
    hashed is logged, its hash ``None``)."""
    code = _agent_code(module, project, path, cache)
    return AgentPart(
        module,
        code.sha256 if code is not None else None,
        versions(code.imports if code is not None else ()),
    )


def _agent_code(
    module: str | None,
    project: str | Path | None,
    path: Sequence[str] | None = None,
    cache: ImportsCache | None = None,
) -> AgentCode | None:
    if not module:
        return None
    try:
        return agent_code(module, project, path, cache=cache)
    except (OSError, ValueError, ImportError) as exc:
        logger.warning("the agent's code (%s) could not be hashed: %s", module, exc)
        return None


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
