"""The report-folder watcher at rest: how often it wakes Python and the CPU it uses over an
idle stretch (no report written), beside a process that only sleeps as long.

Run: ``.venv/bin/python bench/report_folder_idle.py [--seconds N]``. Exits 1 when the
watcher woke Python more than once (its start) over the stretch.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import anyio.to_thread

from tenxeval_tui.browsing.report_folder_watch import follow_report_folder


async def idle(seconds: float, follow: bool) -> tuple[float, int]:
    """(CPU seconds, waits handed to a thread) over ``seconds`` with nothing written."""
    hops = 0
    run_sync = anyio.to_thread.run_sync

    async def counted(*args: object, **kwargs: object) -> object:
        nonlocal hops
        hops += 1
        return await run_sync(*args, **kwargs)  # type: ignore[arg-type]

    anyio.to_thread.run_sync = counted  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            task = None
            if follow:
                task = asyncio.create_task(follow_report_folder(Path(folder), lambda: None))
            before = time.process_time()
            await asyncio.sleep(seconds)  # the idle stretch measured
            used = time.process_time() - before
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            return used, hops
    finally:
        anyio.to_thread.run_sync = run_sync  # type: ignore[assignment]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (1 min) {five:.2f} (5 min) on {os.cpu_count()} CPUs")
    floor_cpu, _ = asyncio.run(idle(args.seconds, follow=False))
    cpu, hops = asyncio.run(idle(args.seconds, follow=True))
    print(f"sleeping only: {floor_cpu * 1000:.1f} ms CPU over {args.seconds:.0f} s")
    print(
        f"following an idle report folder: {cpu * 1000:.1f} ms CPU over {args.seconds:.0f} s "
        f"({cpu / args.seconds * 100:.3f}% of a CPU), {hops} wait(s) handed to a thread "
        "(target: 1, its start)"
    )
    return 0 if hops <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
