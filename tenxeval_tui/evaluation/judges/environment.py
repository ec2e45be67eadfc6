"""The environment variables a judge's settings read, alone: a run's provenance names its
judge models from them without importing the judges' client (:mod:`.models`) before its
first case (issue #38)."""

from __future__ import annotations

ENV_JUDGE_MODEL = "TENXEVAL_JUDGE_MODEL"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_JUDGE_BASE_URL = "TENXEVAL_JUDGE_BASE_URL"
"""The judges' own endpoint, before ``OPENAI_BASE_URL`` (which the agent may read too)."""

__all__ = ["ENV_BASE_URL", "ENV_JUDGE_BASE_URL", "ENV_JUDGE_MODEL"]
