"""The judge cache on disk: atomic writes, .gitignore, expiry, size cap, list/clear/prune."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    JudgeCache,
    JudgePool,
    JudgeReply,
    JudgeSettings,
    TokenUsage,
)
from tenxeval_tui.evaluation.files import fileio
from tenxeval_tui.evaluation.judges.cache import (
    cache_entries,
    cache_summary,
    clear_cache,
    prune_cache,
)
from tests.evaluation.criteria.judge_server import JudgeServer, verdict


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def reply(text: str = "reply", tokens: int = 5) -> JudgeReply:
    return JudgeReply(text, TokenUsage(input_tokens=tokens))


def fill(
    cache: JudgeCache, clock: Clock, count: int, model: str = "m", step: float = 10.0
) -> list[str]:
    keys = []
    for i in range(count):
        key = JudgeCache.key(model, f"prompt {i}", 0)
        cache.put(key, model, reply("x" * 100))
        keys.append(key)
        clock.now += step
    return keys


def test_the_cache_folder_ignores_itself_in_git(tmp_path: Path) -> None:
    folder = tmp_path / "repo" / ".tenxeval_cache" / "judge"
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    JudgeCache(folder).put(JudgeCache.key("m", "p", 0), "m", reply())
    assert (folder / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    status = subprocess.run(
        ["git", "-C", str(tmp_path / "repo"), "status", "--porcelain", "--untracked-files=all"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert status.stdout == ""


def test_writes_are_atomic_and_flushed_to_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = JudgeCache(tmp_path)
    key = JudgeCache.key("m", "p", 0)
    cache.put(key, "m", reply("first"))
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(fileio.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    cache.put(key, "m", reply("second"))
    assert len(synced) == 1  # flushed before the rename
    hit = cache.get(key)
    assert hit is not None and hit.text == "second"

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        cache.put(key, "m", reply("third"))
    hit = cache.get(key)
    assert hit is not None and hit.text == "second"  # the old entry, whole
    assert [p.name for p in tmp_path.rglob("*.tmp")] == []


def test_entries_expire_after_the_ttl(tmp_path: Path) -> None:
    clock = Clock()
    cache = JudgeCache(tmp_path, clock=clock)
    key = JudgeCache.key("m", "p", 0)
    cache.put(key, "m", reply())
    clock.now += 3600
    assert cache.get(key, ttl=3601) is not None
    assert cache.get(key) is not None  # no ttl: never expires
    clock.now += 2
    assert cache.get(key, ttl=3601) is None
    assert cache_entries(tmp_path) == []  # the stale entry is gone


def test_an_entry_without_a_stamp_ages_by_its_file_time(tmp_path: Path) -> None:
    clock = Clock()
    cache = JudgeCache(tmp_path, clock=clock)
    key = JudgeCache.key("m", "p", 0)
    cache.put(key, "m", reply())
    (path,) = tmp_path.rglob("*.json")
    path.write_text(json.dumps({"model": "m", "text": "old format"}), encoding="utf-8")
    os.utime(path, (clock.now - 500, clock.now - 500))
    assert cache.get(key, ttl=600) is not None
    assert cache.get(key, ttl=400) is None


def test_the_size_cap_removes_the_oldest_entries(tmp_path: Path) -> None:
    clock = Clock()
    cache = JudgeCache(tmp_path, clock=clock)
    keys = fill(cache, clock, 10)
    entry_size = cache_entries(tmp_path)[0].size
    cap = entry_size * 6
    for i in range(10, 14):
        key = JudgeCache.key("m", f"prompt {i}", 0)
        cache.put(key, "m", reply("x" * 100), max_bytes=cap)
        keys.append(key)
        clock.now += 10
        assert sum(e.size for e in cache_entries(tmp_path)) <= cap
    left = {e.path.stem for e in cache_entries(tmp_path)}
    assert keys[-1] in left and keys[0] not in left
    # What is left is the newest entries.
    kept = [k for k in keys if k in left]
    assert kept == keys[-len(kept) :]


def test_list_clear_and_prune(tmp_path: Path) -> None:
    clock = Clock()
    cache = JudgeCache(tmp_path, clock=clock)
    start = clock.now
    fill(cache, clock, 3, model="gpt-a")
    fill(cache, clock, 2, model="llama")
    junk = tmp_path / "ab" / ("ab" + "0" * 62 + ".json")
    junk.parent.mkdir(exist_ok=True)
    junk.write_text("{torn", encoding="utf-8")
    summary = cache_summary(tmp_path)
    assert (summary.entries, summary.unreadable) == (6, 1)
    assert {m: n for m, (n, _) in summary.by_model.items()} == {"gpt-a": 3, "llama": 2}
    assert summary.bytes == sum(e.size for e in cache_entries(tmp_path))
    assert (summary.oldest, summary.newest) == (start, start + 40)

    # prune: the unreadable entry, and those stored more than 25 s before "now".
    removed = prune_cache(tmp_path, older_than=25, now=start + 50)
    assert removed.entries == 1 + 3
    assert {e.model for e in cache_entries(tmp_path)} == {"llama"}
    # prune to a size: oldest first.
    removed = prune_cache(tmp_path, max_bytes=cache_entries(tmp_path)[0].size)
    assert removed.entries == 1 and len(cache_entries(tmp_path)) == 1

    removed = clear_cache(tmp_path)
    assert removed.entries == 1 and cache_entries(tmp_path) == []
    assert (tmp_path / ".gitignore").is_file()  # the folder stays ignored
    assert [p.name for p in tmp_path.iterdir()] == [".gitignore"]


def test_a_missing_cache_folder_lists_empty(tmp_path: Path) -> None:
    assert cache_summary(tmp_path / "none").entries == 0
    assert clear_cache(tmp_path / "none").entries == 0


async def test_the_pool_honours_ttl_and_cap_from_the_settings(
    judge_server: JudgeServer, tmp_path: Path
) -> None:
    judge_server.fallback = lambda body: verdict("valid")
    clock = Clock()
    pool = JudgePool(2, cache_dir=tmp_path)
    pool.cache = JudgeCache(tmp_path, clock=clock)
    ask = JudgeSettings(
        model="judge-test", base_url=judge_server.base_url, api_key="k", cache_ttl=60.0
    )
    first = await pool.ask(ask, "p", 0)
    pool.remember(ask, "p", 0, first)
    assert (await pool.ask(ask, "p", 0)).cached
    clock.now += 61
    again = await pool.ask(ask, "p", 0)
    assert not again.cached and len(judge_server.requests) == 2
    capped = JudgeSettings(
        model="judge-test", base_url=judge_server.base_url, api_key="k", cache_max_mb=0.001
    )
    for i in range(20):
        got = await pool.ask(capped, f"prompt {i}", 0)
        pool.remember(capped, f"prompt {i}", 0, got)
    assert sum(e.size for e in cache_entries(tmp_path)) <= 1024
    assert 0 < len(cache_entries(tmp_path)) < 20
