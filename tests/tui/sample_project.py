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


def demo_project(root: Path) -> Path:
    """``root`` as ``make demo``'s workspace: a copy of ``sample_evals/`` and of the
    repository's own ``[tool.tenxeval]`` settings, so a test runs the demo as it is without
    writing reports into the checkout (a developer's report browser would list them)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(
        ROOT / "sample_evals", root / "sample_evals", ignore=shutil.ignore_patterns("__pycache__")
    )
    settings = (ROOT / "pyproject.toml").read_text(encoding="utf-8").partition("[tool.tenxeval]")[2]
    table = settings.split("\n[", 1)[0]  # up to the next table
    (root / "pyproject.toml").write_text(f"[tool.tenxeval]{table}\n", encoding="utf-8")
    return root
