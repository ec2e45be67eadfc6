"""The reports of a watch session: every rerun writes one, so the report browser lists a
session as one row, its newest report, with how many runs it holds.

The workbench's watch mode marks each report of a session in ``metadata.watch``
(``{"session": ID, "run": N}``, N from 0 for the first run); its reruns write the JSON
report only. The rule of the list: a session's reports of one eval set show as the
newest of them, ``(watch: N runs)``; the others stay in the folder, for the flaky view, the baseline
picker and ``compare``. No UI import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WATCH_KEY = "watch"
"""Report metadata key of a watch session's run."""


def watch_session(metadata: Mapping[str, Any]) -> str:
    """The watch session a report's ``metadata`` marks ("" for a report of no session)."""
    mark = metadata.get(WATCH_KEY)
    session = mark.get("session") if isinstance(mark, dict) else None
    return session if isinstance(session, str) else ""


__all__ = ["WATCH_KEY", "watch_session"]
