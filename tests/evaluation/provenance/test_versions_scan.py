"""``versions``: the agent's frameworks found without scanning every installed file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.provenance import agent_provenance as provenance


def test_a_project_module_and_a_declared_one_need_no_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_project_helpers.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    provenance._providers.cache_clear()

    def no_scan() -> None:
        raise AssertionError("every installed distribution's files were scanned")

    monkeypatch.setattr(provenance, "_providers", no_scan)
    found = provenance.versions(["my_project_helpers", "tenxgraph"])
    assert "10xgraph" in found  # declared in its top_level.txt
    assert "my_project_helpers" not in found
    assert "my_project_helpers" not in sys.modules  # found, not imported
