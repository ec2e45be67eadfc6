"""A provenance's ``versions`` kept on disk (``evaluation/provenance/versions_cache.py``):
read from the file while the installs stay as they were, found afresh once a
distribution is installed, upgraded or rewritten in place."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.files import install_state as state_module
from tenxeval_tui.evaluation.provenance import agent_provenance
from tenxeval_tui.evaluation.provenance.versions_cache import VersionsCache, install_state

LONG_AGO_NS = time.time_ns() - 3600 * 10**9


def _install(site: Path, version: str) -> Path:
    """``fakedist`` at ``version`` in ``site``, installed as a wheel is: a module and its
    ``dist-info`` folder, every time set long ago (as an install made before the run)."""
    info = site / f"fakedist-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fakedist\nVersion: {version}\n")
    (info / "top_level.txt").write_text("fakedist\n")
    (site / "fakedist.py").write_text("X = 1\n")
    for place in (info, site):
        os.utime(place, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return info


def _no_lookup(imports: Iterable[str]) -> dict[str, str]:
    raise AssertionError("the versions were looked up again")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site folder of its own on ``sys.path``, first; every other entry counts as old."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(state_module, "RECENT_S", -1e9)  # the test's own folders are new
    return folder


def test_the_next_process_reads_the_versions_from_the_file(site: Path, tmp_path: Path) -> None:
    _install(site, "1.0")
    path = tmp_path / "cache" / "versions.json"
    found = VersionsCache(path).versions(["fakedist", "os"], agent_provenance.versions)
    assert found["fakedist"] == "1.0"
    assert found == agent_provenance.versions(["fakedist", "os"])
    assert VersionsCache(path).versions(["os", "fakedist"], _no_lookup) == found


def test_an_upgraded_distribution_is_looked_up_again(site: Path, tmp_path: Path) -> None:
    old = _install(site, "1.0")
    path = tmp_path / "versions.json"
    assert VersionsCache(path).versions(["fakedist"], agent_provenance.versions)["fakedist"] == (
        "1.0"
    )
    shutil.rmtree(old)  # as pip upgrades: the old dist-info out, the new one in
    (site / "fakedist.py").unlink()
    _install(site, "2.0")
    os.utime(site)  # the site folder's entries changed: its time is now
    found = VersionsCache(path).versions(["fakedist"], agent_provenance.versions)
    assert found["fakedist"] == "2.0"


def test_a_dist_info_rewritten_in_place_is_looked_up_again(site: Path, tmp_path: Path) -> None:
    info = _install(site, "1.0")
    path = tmp_path / "versions.json"
    VersionsCache(path).versions(["fakedist"], agent_provenance.versions)
    # An installer writing METADATA anew renames a new file over it: the folder's time moves.
    (info / "METADATA.new").write_text("Metadata-Version: 2.1\nName: fakedist\nVersion: 1.1\n")
    (info / "METADATA.new").replace(info / "METADATA")
    found = VersionsCache(path).versions(["fakedist"], agent_provenance.versions)
    assert found["fakedist"] == "1.1"


def test_other_modules_are_another_entry(site: Path, tmp_path: Path) -> None:
    _install(site, "1.0")
    path = tmp_path / "versions.json"
    VersionsCache(path).versions(["os"], agent_provenance.versions)
    assert VersionsCache(path).versions(["fakedist"], agent_provenance.versions)["fakedist"] == (
        "1.0"
    )


def test_an_install_made_just_now_is_not_kept(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change within the file system's timestamp granularity would keep the same key."""
    monkeypatch.setattr(state_module, "RECENT_S", 2.0)
    _install(site, "1.0")
    os.utime(site)  # now
    path = tmp_path / "versions.json"
    VersionsCache(path).versions(["fakedist"], agent_provenance.versions)
    assert not path.exists()


def test_a_file_that_is_not_ours_or_cannot_be_written_costs_only_the_lookup(
    site: Path, tmp_path: Path
) -> None:
    _install(site, "1.0")
    torn = tmp_path / "torn.json"
    torn.write_text('{"a": [1, 2')
    assert VersionsCache(torn).versions(["fakedist"], agent_provenance.versions)["fakedist"] == (
        "1.0"
    )
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    unwritable = VersionsCache(blocked / "versions.json")
    assert unwritable.versions(["fakedist"], agent_provenance.versions)["fakedist"] == "1.0"


def test_the_state_names_each_path_entry_and_its_metadata_folders(site: Path) -> None:
    info = _install(site, "1.0")
    before = install_state([str(site)])[0]
    os.utime(info, ns=(LONG_AGO_NS + 10**9, LONG_AGO_NS + 10**9))
    assert install_state([str(site)])[0] != before
    assert install_state([str(site), str(site / "missing")])[0] != install_state([str(site)])[0]


def test_an_agent_part_is_the_same_with_the_cache_and_reads_it_the_next_time(
    site: Path, tmp_path: Path
) -> None:
    _install(site, "1.0")
    project = tmp_path / "project"
    project.mkdir()
    (project / "shop_agent.py").write_text("import fakedist\n\nasync def agent(m, t): return m\n")
    path = tmp_path / "versions.json"
    plain = agent_provenance.agent_part("shop_agent", project)
    cached = agent_provenance.agent_part("shop_agent", project, versions_cache=VersionsCache(path))
    assert cached == plain
    assert plain.versions["fakedist"] == "1.0"
    again = VersionsCache(path)
    again.versions = lambda imports, find: VersionsCache.versions(again, imports, _no_lookup)  # type: ignore[method-assign]
    assert agent_provenance.agent_part("shop_agent", project, versions_cache=again) == plain
