"""The Ray backend (``run --backend ray``): placeholder while it is written."""

from __future__ import annotations


def ray_missing() -> str | None:
    """Why Ray cannot be used here, or ``None`` when it can."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed: pip install 'tenxeval-tui[ray]'"
    return None
