"""Fixtures: a scripted judge server on loopback and an environment pointing at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.evaluation.criteria.judge_server import JudgeServer


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    server = JudgeServer().start()
    yield server
    server.stop()


@pytest.fixture
def judge_env(
    judge_server: JudgeServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> JudgeServer:
    """Judge model, key, endpoint and a private cache folder, all from the environment."""
    monkeypatch.setenv("TENXEVAL_JUDGE_MODEL", "judge-test")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", judge_server.base_url)
    monkeypatch.setenv("TENXEVAL_JUDGE_CACHE_DIR", str(tmp_path / "judge-cache"))
    return judge_server
