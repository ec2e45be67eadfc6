"""Collectors: what an agent run records (events, trajectory, tool calls) for scoring."""

from __future__ import annotations

from tenxeval_tui.evaluation._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "EventCollector": "event_collector",
    "PublisherCallback": "publisher_callback",
    "NodeResponse": "trajectory_collector",
    "Subscription": "trajectory_collector",
    "TrajectoryCollector": "trajectory_collector",
    "make_trajectory_callback": "trajectory_collector",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
