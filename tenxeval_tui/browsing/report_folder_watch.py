"""Follow a report folder on disk: call back whenever a report in it may have changed.

The report list and the flip marks both reread when a report lands. The folder may not
exist yet (no run wrote to it) or may be removed and made again; the watcher then
watches its nearest existing parent and starts over on the folder once it appears.
No UI import: the caller decides what "read again" means.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tenxeval_tui.settings.workspace_watch import WATCH_STEP_MS


async def follow_report_folder(folder: Path, changed: Callable[[], None]) -> None:
    """Call ``changed()`` whenever a JSON report in ``folder`` is written, removed or
    renamed, or the folder itself is made or removed; runs until cancelled.

    A report written while the watcher was starting is not seen by it, so ``changed()``
    is also called once the watcher is up (the first time it wakes, on a change or after
    a second without any): a caller that read the folder before following it misses
    nothing.
    """
    from watchfiles import awatch  # its Rust extension loads only when a screen follows

    folder = folder.resolve()
    while True:
        watched = next((p for p in (folder, *folder.parents) if p.is_dir()), None)
        if watched is None:
            await asyncio.sleep(1)
            continue
        try:
            # Every second without changes the loop wakes up to see whether the folder
            # was made, removed or made again: then it watches anew.
            started = False
            async for changes in awatch(
                watched,
                watch_filter=partial(_is_report_change, folder),
                debounce=300,
                step=WATCH_STEP_MS,
                recursive=False,
                rust_timeout=1000,
                yield_on_timeout=True,
            ):
                if changes or not started:
                    started = True
                    changed()
                if not watched.is_dir() or (watched != folder and folder.is_dir()):
                    changed()
                    break
        except OSError:  # the folder went away while watched: look again shortly
            await asyncio.sleep(1)


def _is_report_change(folder: Path, _change: object, changed: str) -> bool:
    """A JSON file in ``folder`` (a report), or ``folder`` itself (created or removed)."""
    path = Path(changed)
    return path == folder or (path.parent == folder and path.suffix == ".json")


__all__ = ["follow_report_folder"]
