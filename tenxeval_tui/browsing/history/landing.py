"""Reports landing in a folder: added to its history index as they are written.

What the CLI calls after ``run`` writes a report, and the workbench when a run of its
own ends: the new JSON reports go into their folder's index at once, read once each, so
the next look at the history has nothing to read. A folder whose history was never
looked at has no index, and none is made here (the first look makes it from the
reports). The index is a cache: one that cannot be written now (locked too long, a full
disk) is left as it is, and the next look at the history reads what it missed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from tenxeval_tui.browsing.history.index_file import index_path

logger = logging.getLogger("tenxeval_tui.browsing.history")


def index_landed(files: Iterable[str | Path]) -> int:
    """Add the JSON reports among ``files`` to their folders' history indexes (where there
    is one); how many were added (never raises for the index's sake). The index's code
    (the report models, SQLite) is imported only for a folder that has one: a ``run``
    into a folder whose history was never looked at ends without it (issue #38)."""
    by_folder: dict[Path, list[Path]] = {}
    indexed: dict[Path, bool] = {}
    for raw in files:
        path = Path(raw)
        folder = path.parent
        if folder not in indexed:
            indexed[folder] = index_path(folder).is_file()
        if indexed[folder]:
            by_folder.setdefault(folder, []).append(path)
    if not by_folder:
        return 0
    import sqlite3

    from tenxeval_tui.browsing.history.index import HistoryIndex
    from tenxeval_tui.browsing.reports_index import is_report_file

    added = 0
    for folder, candidates in by_folder.items():
        paths = [path for path in candidates if is_report_file(path)]
        if not paths:
            continue
        try:
            with HistoryIndex(folder) as index:
                added += index.add(paths).read
        except (sqlite3.Error, OSError) as exc:
            logger.info("history index of %s not updated now: %s", folder, exc)
    return added


__all__ = ["index_landed"]
