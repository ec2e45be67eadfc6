"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

# The loopback OpenAI-compatible server (playing judges and simulated users), for the
# tests of `run` on scenario files.
from tests.evaluation.criteria.conftest import judge_env, judge_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder: the sample plain agent as ./support_agent.py and its eval set."""
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    (tmp_path / "evals").mkdir()
    eval_set = json.loads((ROOT / "sample_evals/plain_agent.evalset.json").read_text())
    del eval_set["metadata"]["agent"]  # the tests name the agent themselves
    (tmp_path / "evals/plain.evalset.json").write_text(json.dumps(eval_set, indent=2))
    return tmp_path


__all__ = ["judge_env", "judge_server", "project"]
