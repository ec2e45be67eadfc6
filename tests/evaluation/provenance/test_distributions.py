"""The fast module -> distributions map gives what the standard library's does."""

from __future__ import annotations

import importlib.metadata
from typing import Any

import pytest

from tenxeval_tui.evaluation.provenance.distributions import (
    DeclaredDistributions,
    packages_distributions,
)


def test_the_map_is_the_standard_librarys_for_every_installed_distribution() -> None:
    fast = {module: sorted(names) for module, names in packages_distributions().items()}
    slow = {
        module: sorted(names)
        for module, names in importlib.metadata.packages_distributions().items()
    }
    assert fast == slow
    # textual declares no top_level.txt: its module is inferred from its RECORD
    assert importlib.metadata.distribution("textual").read_text("top_level.txt") is None
    assert fast["textual"] == ["textual"]


def test_the_declared_providers_are_those_whose_top_level_txt_names_the_module() -> None:
    declared = DeclaredDistributions()
    expected: dict[str, list[str]] = {}
    for dist in importlib.metadata.distributions():
        for module in (dist.read_text("top_level.txt") or "").split():
            names = expected.setdefault(module, [])
            if dist.metadata["Name"] not in names:
                names.append(dist.metadata["Name"])
    assert expected, "no installed distribution declares its modules"
    for module, names in expected.items():
        assert sorted(declared.providers(module) or []) == sorted(names), module
    assert declared.providers("textual") is None  # textual declares none
    assert declared.providers("no_such_module_anywhere") is None


def test_only_the_asked_module_s_distributions_have_their_metadata_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[str] = []
    metadata = importlib.metadata.PathDistribution.metadata

    def reading(dist: importlib.metadata.PathDistribution) -> Any:
        read.append(str(dist._path))
        return metadata.fget(dist)  # type: ignore[attr-defined]

    monkeypatch.setattr(importlib.metadata.PathDistribution, "metadata", property(reading))
    assert DeclaredDistributions().providers("tenxgraph") == ["10xgraph"]
    assert len(read) == 1 and "10xgraph" in read[0]
