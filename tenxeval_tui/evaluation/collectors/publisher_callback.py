"""PublisherCallback: a 10xGraph after-invoke callback that publishes each model and tool call.

It needs the optional ``10xgraph`` package, so it is defined with the rest of the
10xGraph callbacks in :mod:`.tenxgraph_callbacks` and loaded from
there on first access (importing this module never imports 10xGraph).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import PublisherCallback

__all__ = ["PublisherCallback"]


def __getattr__(name: str) -> Any:
    if name == "PublisherCallback":
        from tenxeval_tui.evaluation.collectors.tenxgraph_callbacks import PublisherCallback

        return PublisherCallback
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
