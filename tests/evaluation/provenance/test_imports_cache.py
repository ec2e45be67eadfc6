"""What each file of an agent's code imports, kept on disk between runs
(``evaluation/provenance/imports_cache.py``): a file is parsed once, a changed file again,
and the hash is the same with or without the cache."""

from __future__ import annotations

import importlib
import importlib.metadata
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.provenance import _version, agent_code, agent_part
from tenxeval_tui.evaluation.provenance.imports_cache import (
    FILE_NAME,
    ImportsCache,
    cache_dir,
)

# The module (the package's `agent_code` is its function).
agent_code_module = importlib.import_module("tenxeval_tui.evaluation.provenance.agent_code")


def _project(root: Path) -> Path:
    (root / "shop").mkdir(parents=True)
    (root / "shop/__init__.py").write_text("")
    (root / "shop/agent.py").write_text("import helpers\n\nasync def agent(m, t): return m\n")
    (root / "helpers.py").write_text("X = 1\n")
    (root / "extra.py").write_text("Y = 2\n")
    return root


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh process: nothing parsed in this one yet."""
    monkeypatch.setattr(agent_code_module, "_parsed", {})


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(source: bytes, module: str, is_package: bool) -> set[str]:
        raise AssertionError(f"{module} parsed again")

    monkeypatch.setattr(agent_code_module, "_imported_names", refuse)


def test_a_file_parsed_once_is_not_parsed_again_by_the_next_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    cache_file = tmp_path / "cache" / FILE_NAME
    first = agent_code("shop.agent", project, cache=ImportsCache(cache_file))
    assert first is not None and cache_file.is_file()
    _new_process(monkeypatch)
    _no_parsing(monkeypatch)
    again = agent_code("shop.agent", project, cache=ImportsCache(cache_file))
    assert again == first
    assert again == agent_code_module.agent_code("shop.agent", project)  # the in-process cache


def test_a_changed_agent_file_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    cache_file = tmp_path / "cache" / FILE_NAME
    before = agent_code("shop.agent", project, cache=ImportsCache(cache_file))
    assert before is not None and "extra.py" not in dict(before.files)
    (project / "shop/agent.py").write_text("import helpers\nimport extra\n")
    _new_process(monkeypatch)
    after = agent_code("shop.agent", project, cache=ImportsCache(cache_file))
    assert after is not None and "extra.py" in dict(after.files)  # its new import followed
    _new_process(monkeypatch)
    assert after == agent_code("shop.agent", project)  # as found without any cache


@pytest.mark.parametrize("content", [b"", b"{torn", b"[1, 2]", b'{"k": 3}'])
def test_a_cache_file_that_is_not_ours_counts_as_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    project = _project(tmp_path / "p")
    cache_file = tmp_path / FILE_NAME
    cache_file.write_bytes(content)
    found = agent_code("shop.agent", project, cache=ImportsCache(cache_file))
    _new_process(monkeypatch)
    assert found == agent_code("shop.agent", project)
    _new_process(monkeypatch)
    _no_parsing(monkeypatch)  # and it was written again, whole
    assert agent_code("shop.agent", project, cache=ImportsCache(cache_file)) == found


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    (tmp_path / "file").write_text("")
    unwritable = ImportsCache(tmp_path / "file" / FILE_NAME)  # its folder is a file
    part = agent_part("shop.agent", project, cache=unwritable)
    assert part.sha256 == agent_part("shop.agent", project).sha256 is not None


def test_the_cache_folder_is_the_variable_s_else_the_user_cache() -> None:
    assert cache_dir({"TENXEVAL_CACHE_DIR": "/c"}) == Path("/c")
    assert cache_dir({"XDG_CACHE_HOME": "/x"}) == Path("/x/tenxeval-tui")
    assert cache_dir({}) == Path.home() / ".cache" / "tenxeval-tui"


@pytest.mark.parametrize("distribution", ["pydantic", "pytest", "10xgraph", "no-such-dist-x"])
def test_a_version_is_what_importlib_metadata_says(distribution: str) -> None:
    try:
        expected = importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        expected = ""
    assert _version(distribution) == expected
