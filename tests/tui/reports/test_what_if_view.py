"""The threshold what-if of the report browser, driven through Textual's Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tenxeval_tui.evaluation import EvalConfig, EvalReport
from tenxeval_tui.screens.reports.what_if import WhatIfScreen
from tenxeval_tui.widgets.reports.what_if_tables import CriterionSettingsTable
from tests.browsing.test_what_if import judged, real_report
from tests.tui.browser_app import SIZE, BrowserApp, open_current_report, plain
from tests.waiting import wait_for


async def test_thresholds_move_verdicts_and_save_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the standalone browser's workspace: the current folder
    report = judged(await real_report(), 0.9)  # the judge passed every case
    report.to_file(tmp_path / "coins_20260520_142301.json")
    app = BrowserApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_current_report(pilot, count=1)
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, WhatIfScreen) and app.screen.result)
        screen = app.screen
        assert isinstance(screen, WhatIfScreen)
        table = screen.query_one(CriterionSettingsTable)
        assert table.has_focus
        assert [t.plain for t in table.row_cells(0)][:3] == ["rouge_match", "0.50", "on"]
        assert "stored score" in table.row_cells(1)[3].plain  # the judged criterion
        assert screen.check_action("save", ()) is False  # nothing changed yet
        await pilot.press(*["plus"] * 6)  # rouge_match 0.50 -> 0.80: q1 (0.75) fails
        await wait_for(pilot, lambda: screen.result is not None and screen.changes)
        assert [(c.eval_id, c.before, c.after) for c in screen.changes] == [
            ("q1", "passed", "failed")
        ]
        assert table.row_cells(0)[1].plain == "0.50 → 0.80"
        header = plain(screen.query_one("#what-if-header", Static))
        assert "66.7% → 33.3% -33.3 pts" in header and "1 of 3 pass" in header
        assert "1 case(s) change: 0 now pass, 1 no longer pass" in plain(
            screen.query_one("#what-if-cases-title", Static)
        )
        assert sorted(p.name for p in tmp_path.iterdir()) == ["coins_20260520_142301.json"]
        # (result is still the last key's until a key is handled: wait for the new verdicts)
        await pilot.press("space")  # rouge_match off: every case passes on the judge
        await wait_for(
            pilot,
            lambda: (
                screen.result is not None
                and {(c.eval_id, c.after) for c in screen.changes} == {("q2", "passed")}
            ),
        )
        await pilot.press("space")  # on again: back to the 0.80 verdicts
        await wait_for(
            pilot,
            lambda: screen.result is not None and [c.eval_id for c in screen.changes] == ["q1"],
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.saved is not None)
        assert screen.saved == tmp_path / "coins_20260520_142301.what-if.json"
        saved = EvalReport.from_file(screen.saved)
        assert [r.status for r in saved.results] == ["passed", "failed", "failed"]
        assert saved.config_used["criteria"]["rouge_match"]["threshold"] == 0.8
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.saved_config is not None)
        assert screen.saved_config == tmp_path / "coins.what-if.config.json"
        config = EvalConfig.from_file(screen.saved_config)
        enabled = dict(config.criteria.enabled_items())
        assert enabled["rouge_match"].threshold == 0.8
        assert enabled["factual_accuracy_v1"].threshold == 0.7  # as the report had it
        await pilot.press("0")
        await wait_for(pilot, lambda: screen.result is not None and screen.changes == [])
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, WhatIfScreen))
