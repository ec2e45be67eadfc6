"""The fast module -> distributions map gives what the standard library's does."""

from __future__ import annotations

import importlib.metadata

from tenxeval_tui.evaluation.provenance.distributions import packages_distributions


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
