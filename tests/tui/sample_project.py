"""A project holding a copy of the offline sample agents and their eval sets."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sample_project(root: Path, settings: str = 'output_dir = "reports"\n') -> Path:
    """``root`` with ``sample_evals/`` (the weather graph, the plain agent, their eval
    sets naming them in ``metadata.agent``) and a ``pyproject.toml`` making it the
    workspace the agents are imported from, its ``[tool.tenxeval]`` table ``settings``."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(
        ROOT / "sample_evals", root / "sample_evals", ignore=shutil.ignore_patterns("__pycache__")
    )
    (root / "pyproject.toml").write_text(f"[tool.tenxeval]\n{settings}", encoding="utf-8")
    return root


def demo_project(root: Path) -> Path:
    """``root`` as ``make demo``'s workspace: :func:`sample_project` with the repository's
    own ``[tool.tenxeval]`` settings, so a test runs the demo as it is without writing
    reports into the checkout (a developer's report browser would list them)."""
    table = (ROOT / "pyproject.toml").read_text(encoding="utf-8").partition("[tool.tenxeval]\n")[2]
    return sample_project(root, table.split("\n[", 1)[0] + "\n")  # up to the next table
