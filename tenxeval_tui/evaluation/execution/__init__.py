"""What one case's run produced (:class:`ExecutionResult`), handed to every criterion."""

from __future__ import annotations

from tenxeval_tui.evaluation._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "ExecutionResult": "result",
    "NodeResponseData": "result",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
