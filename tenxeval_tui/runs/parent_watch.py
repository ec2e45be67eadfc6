"""No process of a run outlives the process that started it.

A worker child (:mod:`~tenxeval_tui.runs.worker`, :mod:`~tenxeval_tui.runs.pool_worker`)
whose agent blocks (a ``time.sleep``, a C call) never reads another line: if the process
that started it is killed outright (``kill -9``, the OOM killer, a CI runner tearing the
job down), nothing would ever end it, and it would keep its memory for ever. On Linux,
:func:`die_with_parent` asks the kernel to send it SIGKILL when its parent dies
(``PR_SET_PDEATHSIG``), and ends it at once when the parent died before it asked. The
parent names itself in :data:`PARENT_PID_ENV` (``RunPlan.worker_env``), so a child can tell
that it was orphaned already. Elsewhere it does nothing. (A parent that is asked to stop,
SIGTERM, stops its child itself: see ``tenxeval-tui run``.)

The kernel ties the signal to the *thread* that started the child; the front ends start
their workers from their main thread (or their event loop's), which lives as long as they.
"""

from __future__ import annotations

import os
import signal
import sys

PARENT_PID_ENV = "TENXEVAL_PARENT_PID"
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """This process gets SIGKILL when its parent dies (Linux; else nothing)."""
    expected = os.environ.pop(PARENT_PID_ENV, "")
    if expected.isdigit():
        die_with(int(expected))


def die_with(parent: int) -> None:
    """This process, a child of ``parent``, gets SIGKILL when ``parent`` dies (Linux; else
    nothing); it ends at once when ``parent`` died already."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # lazy: only a worker child asks the kernel; a parent only names itself

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: nothing to do
        return
    if os.getppid() != parent:  # orphaned before the line above took effect
        os._exit(1)


__all__ = ["PARENT_PID_ENV", "die_with", "die_with_parent"]
