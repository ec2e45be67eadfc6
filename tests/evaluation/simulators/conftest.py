"""Fixtures: the loopback judge server (playing the simulated user and the goal judge)."""

from __future__ import annotations

from tests.evaluation.criteria.conftest import judge_env, judge_server

__all__ = ["judge_env", "judge_server"]
