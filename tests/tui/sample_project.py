"""A project holding a copy of the offline sample agents and their eval sets."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sample_project(root: Path) -> Path:
    """``root`` with ``sample_evals/`` (the weather graph, the plain agent, their eval
    sets naming them in ``metadata.agent``) and a ``pyproject.toml`` making it the
    workspace the agents are imported from."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(
        ROOT / "sample_evals", root / "sample_evals", ignore=shutil.ignore_patterns("__pycache__")
    )
    (root / "pyproject.toml").write_text(
        '[tool.tenxeval]\noutput_dir = "reports"\n', encoding="utf-8"
    )
    return root
