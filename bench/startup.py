"""Start-up time: median wall time of `tenxeval-tui --help` (target: <= 0.25 s) and of
`python -c "import tenxeval_tui.evaluation"`.

Run: .venv/bin/python bench/startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPEATS = 11
HELP_TARGET_SECONDS = 0.25
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


def median_seconds(command: list[str]) -> float:
    subprocess.run(command, check=True, capture_output=True)  # warm the file cache
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    help_time = median_seconds([str(SCRIPT), "--help"])
    run_help_time = median_seconds([str(SCRIPT), "run", "--help"])
    import_time = median_seconds([sys.executable, "-c", "import tenxeval_tui.evaluation"])
    baseline = median_seconds([sys.executable, "-c", "pass"])
    print(f"python -c pass (baseline):               {baseline:.3f} s")
    print(
        f"tenxeval-tui --help:                     {help_time:.3f} s "
        f"(target <= {HELP_TARGET_SECONDS} s) {'OK' if help_time <= HELP_TARGET_SECONDS else 'OVER'}"
    )
    print(f"tenxeval-tui run --help:                 {run_help_time:.3f} s")
    print(f"python -c 'import tenxeval_tui.evaluation': {import_time:.3f} s")
    print(f"(median of {REPEATS} runs each)")
    return 0 if help_time <= HELP_TARGET_SECONDS else 1


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
