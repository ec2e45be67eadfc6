"""What the accept-actual view tests share: a project whose eval set was written before a
real run of it, that run's report in the browser's folder, and the app's notifications."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from tenxeval_tui.evaluation import EvalReport
from tests.tui.conftest import notifications


async def report_project(
    tmp_path: Path, name: str, text: str, run: Callable[[Path], Awaitable[EvalReport]]
) -> Path:
    """``name.evalset.json`` holding ``text``, written a minute ago, and the report of a
    real run of it (``run``) in ``eval_reports/``; the eval set's path."""
    eval_set = tmp_path / f"{name}.evalset.json"
    eval_set.write_text(text, encoding="utf-8")
    past = time.time() - 60
    os.utime(eval_set, (past, past))
    report = await run(eval_set)
    report.to_file(tmp_path / "eval_reports" / f"{name}_20261204_120000.json")
    return eval_set


# The name these tests used; kept for tests written before `notifications` was merged.
notices = notifications
