"""An agent's schema kept on disk from one session to the next, while its files hold the
same bytes and the installs stay as they were."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from tenxeval_tui.runs import schema_store
from tenxeval_tui.runs.agent_schema import SchemaCache
from tenxeval_tui.runs.schema_store import SchemaStore, default_store
from tests.runs.test_agent_schema import AGENT

pytestmark = pytest.mark.agent_schema_child  # the subject: the child and its caches


def session(store: SchemaStore, spec: str, folder: Path) -> tuple[list[str] | None, int]:
    """A new editor session's read of ``spec``: its tool names, and the children it started."""
    cache = SchemaCache(store)
    result = asyncio.run(cache.get(spec, folder))
    return (result.schema.tool_names if result.schema else None), cache.reads


def later(path: Path) -> None:
    """``path``'s modification time two seconds on (a .pyc records whole seconds)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def test_a_new_session_reads_a_kept_schema_without_a_child(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "clock.py").write_text(AGENT, encoding="utf-8")
    store = SchemaStore(tmp_path / "schemas.json")
    assert session(store, "clock:agent", agent) == (["get_time"], 1)
    assert session(store, "clock:agent", agent) == (["get_time"], 0)
    later(agent / "clock.py")  # touched, same bytes (a checkout): still the same code
    assert session(store, "clock:agent", agent) == (["get_time"], 0)
    (agent / "clock.py").write_text(AGENT.replace("get_time", "get_date"), encoding="utf-8")
    later(agent / "clock.py")
    assert session(store, "clock:agent", agent) == (["get_date"], 1)
    assert session(store, "clock:agent", agent) == (["get_date"], 0)


def test_the_schema_is_kept_per_agent_and_folder(tmp_path: Path) -> None:
    store = SchemaStore(tmp_path / "schemas.json")
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "clock.py").write_text(AGENT, encoding="utf-8")
    assert session(store, "clock:agent", tmp_path / "one") == (["get_time"], 1)
    assert session(store, "clock:agent", tmp_path / "two") == (["get_time"], 1)  # another folder
    (tmp_path / "one" / "other.py").write_text("from clock import agent\n", encoding="utf-8")
    assert session(store, "other:agent", tmp_path / "one") == (["get_time"], 1)  # another spec
    assert session(store, "clock:agent", tmp_path / "one") == (["get_time"], 0)


def test_an_agent_that_cannot_be_read_is_not_kept(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("raise RuntimeError('no config')\n", encoding="utf-8")
    store = SchemaStore(tmp_path / "schemas.json")
    assert session(store, "broken:agent", tmp_path) == (None, 1)
    assert session(store, "broken:agent", tmp_path) == (None, 1)
    assert not store.path.exists()


def test_a_changed_install_reads_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    store = SchemaStore(tmp_path / "cache" / "schemas.json")
    assert session(store, "clock:agent", tmp_path) == (["get_time"], 1)
    real = schema_store.install_state
    monkeypatch.setattr(schema_store, "install_state", lambda path: ("upgraded", real(path)[1]))
    assert session(store, "clock:agent", tmp_path) == (["get_time"], 1)


@pytest.mark.parametrize("content", ["{not json", "[]", '{"x": 1}'])
def test_a_store_file_that_is_not_ours_is_read_as_empty(tmp_path: Path, content: str) -> None:
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    store = SchemaStore(tmp_path / "cache" / "schemas.json")
    store.path.parent.mkdir()
    store.path.write_text(content, encoding="utf-8")
    assert session(store, "clock:agent", tmp_path) == (["get_time"], 1)
    assert session(store, "clock:agent", tmp_path) == (["get_time"], 0)


def test_a_file_changed_since_the_child_read_it_is_not_kept(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    store = SchemaStore(tmp_path / "cache" / "schemas.json")
    cache = SchemaCache(store)
    result = asyncio.run(cache.get("clock:agent", tmp_path))
    assert result.schema is not None
    store.path.unlink()
    later(tmp_path / "clock.py")  # after the child read it, before the store kept it
    store.keep("clock:agent", tmp_path, result.schema, result.files)
    assert not store.path.exists()


def test_the_default_store_is_in_the_cache_folder(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    assert session(default_store(), "clock:agent", tmp_path) == (["get_time"], 1)
    path = Path(os.environ["TENXEVAL_CACHE_DIR"]) / schema_store.FILE_NAME
    kept = json.loads(path.read_text(encoding="utf-8"))
    (entry,) = kept.values()
    assert entry["schema"]["tools"][0]["name"] == "get_time"
    assert list(entry["files"]) == [str((tmp_path / "clock.py").resolve())]
    assert session(SchemaStore(path), "clock:agent", tmp_path) == (["get_time"], 0)
