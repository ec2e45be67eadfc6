"""Follow a report folder on disk: call back whenever a report in it may have changed.

The report list and the flip marks both reread when a report lands. The folder may not
exist yet (no run wrote to it) or may be removed and made again; the watcher then
watches its nearest existing parent and starts over on the folder once it appears.
No UI import: the caller decides what "read again" means.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from pathlib import Path

from tenxeval_tui.settings.workspace_watch import WATCH_STEP_MS


async def follow_report_folder(folder: Path, changed: Callable[[], None]) -> None:
    """Call ``changed()`` whenever a JSON report in ``folder`` is written, removed or
    renamed, or the folder itself is made or removed; runs until cancelled.

    A report written while the watcher was starting is not seen by it, so ``changed()``
    is also called once the watcher is up: a caller that read the folder before following
    it misses nothing. Between changes nothing wakes in Python (watchfiles' own thread
    looks for its stop every ``WATCH_STEP_MS``).
    """
    from watchfiles import awatch  # its Rust extension loads only when a screen follows

    folder = folder.resolve()
    while True:
        watched = _nearest_folder(folder)
        if watched is None:
            await asyncio.sleep(1)
            continue
        changes = awatch(
            watched,
            watch_filter=partial(_is_report_change, folder),
            debounce=300,
            step=WATCH_STEP_MS,
            recursive=False,
            rust_timeout=0,  # no timeout: the made or removed folder is an event too
        )
        next_changes = asyncio.ensure_future(anext(changes))
        try:
            # awatch sets its watch up in its first step, before it first waits: once that
            # step ran, every change is seen.
            await asyncio.sleep(0)
            changed()
            if _nearest_folder(folder) == watched:  # else made meanwhile: watch it
                while True:
                    await next_changes
                    changed()
                    if _nearest_folder(folder) != watched:
                        break  # the folder (or one on the way to it) went or came
                    next_changes = asyncio.ensure_future(anext(changes))
        except OSError:  # the folder went away while watched: look again shortly
            await asyncio.sleep(1)
        finally:  # the watch's thread stopped before the next (or the end)
            next_changes.cancel()
            with suppress(asyncio.CancelledError, OSError, StopAsyncIteration):
                await next_changes
            await changes.aclose()


def _nearest_folder(folder: Path) -> Path | None:
    """``folder``, or its nearest parent that exists (``None``: not even the root)."""
    return next((p for p in (folder, *folder.parents) if p.is_dir()), None)


def _is_report_change(folder: Path, _change: object, changed: str) -> bool:
    """A JSON file in ``folder`` (a report), ``folder`` itself or a folder on the way to it
    (created or removed)."""
    path = Path(changed)
    return (path.parent == folder and path.suffix == ".json") or folder.is_relative_to(path)


__all__ = ["follow_report_folder"]
