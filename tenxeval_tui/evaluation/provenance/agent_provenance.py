"""The agent's part of a report's provenance: the hash of its code and the versions of
what it imports (``agent_sha256``, ``versions``; :mod:`tenxeval_tui.evaluation.provenance`
says what a provenance holds).

Apart from the rest of the provenance (the eval sets', configs' and results' hashes, which
need the core's models): a run's worker starts working this out, in a forked child, as soon
as it is told its agent, before it has imported the models (issue #38). Only the standard
library and the code walk (:mod:`.agent_code`) are imported.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import platform
import site
import sysconfig
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.evaluation.provenance.agent_code import AgentCode, agent_code
from tenxeval_tui.evaluation.provenance.distributions import (
    DeclaredDistributions,
    packages_distributions,
)
from tenxeval_tui.evaluation.provenance.imports_cache import ImportsCache
from tenxeval_tui.evaluation.provenance.versions_cache import VersionsCache

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
    description and all) was most of the cost of a run's ``versions`` (issue #38).
    ``importlib.metadata`` is imported here: a run whose versions come from the cache
    (:mod:`.versions_cache`) needs it for nothing."""
    import importlib.metadata

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
    versions_cache: VersionsCache | None = None,
) -> AgentPart:
    """The :class:`AgentPart` of the agent in ``module`` imported from ``project``, its
    code found on the import path ``path`` (default ``sys.path`` as it is now: before the
    agent's import, which may change it). ``cache``: what each file of the code imports,
    kept on disk between runs (:mod:`.imports_cache`); ``versions_cache``: the versions,
    kept on disk while the installs stay as they were (:mod:`.versions_cache`). Never
    raises (a code that cannot be hashed is logged, its hash ``None``)."""
    code = _agent_code(module, project, path, cache)
    imports = code.imports if code is not None else ()
    return AgentPart(
        module,
        code.sha256 if code is not None else None,
        versions(imports) if versions_cache is None else versions_cache.versions(imports, versions),
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


__all__ = ["OWN_DISTRIBUTION", "AgentPart", "agent_part", "versions"]
