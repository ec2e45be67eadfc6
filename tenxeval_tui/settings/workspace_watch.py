"""Follow a workspace's folder: call back when an eval set or scenario file appears or
goes (made in another editor, by ``git checkout``, or saved new from the workbench).

The editor's file list and the run view's eval-set list are made from the workspace's
files once; following the folder lists a new file without a restart. Only files that
come or go count (an edited file is the open document's own business). No UI import.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from tenxeval_tui.settings.workspace import EVAL_SET_SUFFIX, SCENARIO_SUFFIX, Workspace

WATCH_STEP_MS = 200
"""How often (ms) a folder watcher's thread wakes to look for changes and for its stop:
it takes the GIL each time, so the app's idle CPU grows with it (20 wakes a second per
watcher at 50 ms, with five or six watchers once every screen was shown); a change is
seen at most this much later."""


def is_run_file_change(root: Path, change: object, path: str) -> bool:
    """An eval set or scenario file under ``root`` added or deleted (not modified), outside
    hidden folders (as the workspace lists them)."""
    from watchfiles import Change

    if change not in (Change.added, Change.deleted):
        return False
    found = Path(path)
    if not found.name.endswith((EVAL_SET_SUFFIX, SCENARIO_SUFFIX)):
        return False
    try:
        inside = found.relative_to(root)
    except ValueError:
        return False
    return not any(part.startswith(".") for part in inside.parts)


async def follow_workspace_files(workspace: Workspace, changed: Callable[[], None]) -> None:
    """Call ``changed()`` whenever an eval set or scenario file of ``workspace``'s folder
    is made, removed or renamed; runs until cancelled (nothing to follow for a workspace
    opened on one file, or whose folder does not exist)."""
    if workspace.single_file is not None or not workspace.root.is_dir():
        return
    from watchfiles import awatch  # its Rust extension loads only when a screen follows

    root = workspace.root.resolve()
    async for _changes in awatch(
        root, watch_filter=partial(is_run_file_change, root), debounce=300, step=WATCH_STEP_MS
    ):
        changed()


__all__ = ["follow_workspace_files", "is_run_file_change"]
