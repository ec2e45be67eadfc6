"""How the history view looks at 80x24: the pass-rate chart with its interval and the
cursor on an earlier run, that run's line, the cases' strips (pytest-textual-snapshot).

Content is fixed (timestamps, in UTC) so the picture changes only when the view does.
Update with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.browsing.history.samples import write_series
from tests.tui.browser_app import BrowserApp
from tests.tui.reports.test_history_view import open_history

SIZE = (80, 24)


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_history_view_snapshot(snap_compare: Any, tmp_path: Path, utc: None) -> None:
    ids = ["london", "paris", "tokyo", "oslo", "rome"]
    columns = ["PPPPP", "PFPPF", "PFEPP", "PPEPF", "PPPPP", "PPPFP", "PPPPP", "PFPFP"]
    write_series(tmp_path, columns, ids, commit="ab" * 20, cost=0.02)

    async def on_an_earlier_run(pilot: Pilot[Any]) -> None:
        screen = await open_history(pilot, runs=len(columns))
        await pilot.press("left", "left")
        while screen.query_one("#history-cases").row_count != len(ids):
            await pilot.pause()
        await pilot.pause()

    assert snap_compare(BrowserApp(tmp_path), terminal_size=SIZE, run_before=on_an_earlier_run)
