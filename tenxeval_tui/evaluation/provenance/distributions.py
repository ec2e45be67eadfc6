"""Which installed distributions provide each top-level module, read fast.

The standard library's :func:`importlib.metadata.packages_distributions` gives the same
mapping, but infers a distribution's modules (when it declares none in
``top_level.txt``, as most wheels built today do not) by making a path object of every
file its ``RECORD`` lists: 0.6 CPU-seconds in a virtualenv of about 120 distributions,
paid by every run's worker before its first case (a report's provenance names the
versions of what the agent imports). Here the ``RECORD`` is read as text: the same
mapping (a test compares the two) in about a tenth of the time.
"""

from __future__ import annotations

import csv
import inspect
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when the distributions are looked up: a run whose versions
    import importlib.metadata  # come from the cache imports it for nothing (issue #38)


def packages_distributions() -> Mapping[str, list[str]]:
    """Top-level module -> the names of the installed distributions providing it (as
    :func:`importlib.metadata.packages_distributions`)."""
    import importlib.metadata

    providers: defaultdict[str, list[str]] = defaultdict(list)
    for dist in importlib.metadata.distributions():
        for module in _top_level_modules(dist):
            providers[module].append(dist.metadata["Name"])
    return dict(providers)


class DeclaredDistributions:
    """Which installed distributions name a top-level module in their ``top_level.txt``
    (one small file a distribution, none of their ``RECORD``s read).

    A distribution's name is read from its ``METADATA`` only when one of its modules is
    asked for: parsing every distribution's ``METADATA`` cost a run's worker about
    0.03 CPU-seconds for the one framework module its agent imports."""

    def __init__(self) -> None:
        import importlib.metadata

        self._dists: defaultdict[str, list[importlib.metadata.Distribution]] = defaultdict(list)
        for dist in importlib.metadata.distributions():
            for module in _declared(dist):
                self._dists[module].append(dist)

    def providers(self, module: str) -> list[str] | None:
        """The names of the distributions declaring ``module`` (``None``: none does)."""
        dists = self._dists.get(module)
        if not dists:
            return None
        names: list[str] = []
        for dist in dists:
            name = dist.metadata["Name"]
            if name and name not in names:
                names.append(name)
        return names


def _declared(dist: importlib.metadata.Distribution) -> list[str]:
    return (dist.read_text("top_level.txt") or "").split()


def _top_level_modules(dist: importlib.metadata.Distribution) -> list[str]:
    """The modules ``dist`` declares in ``top_level.txt``, else those its files make."""
    declared = _declared(dist)
    if declared:
        return declared
    record = dist.read_text("RECORD")
    if record is None:  # an egg-info install: its file list, the standard library's way
        paths = [str(file) for file in dist.files or ()]
    else:
        paths = [row[0] for row in csv.reader(record.splitlines()) if row]
    names = {path.split("/")[0] if "/" in path else inspect.getmodulename(path) for path in paths}
    return [name for name in names if name and "." not in name]


__all__ = ["DeclaredDistributions", "packages_distributions"]
