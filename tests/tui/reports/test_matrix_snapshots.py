"""How the variant matrix looks at 80x24: the ranked variants, the pairwise verdicts, the
cases x variants with the separating ones first; and two transcripts side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.analysis.matrix import build_matrix
from tenxeval_tui.screens.reports.matrix import MatrixScreen, TranscriptPairScreen
from tests.tui.conftest import wait_for

SIZE = (80, 24)


def report(passes: list[bool], cost: float) -> EvalReport:
    results = [
        EvalCaseResult(
            eval_id=f"case-{i}",
            passed=ok,
            actual_response="right" if ok else "wrong",
            duration_seconds=0.5 + i / 10,
            cost_usd=cost,
        )
        for i, ok in enumerate(passes)
    ]
    return EvalReport.create(eval_set_id="support", results=results)


REPORTS = {
    "large": report([True] * 8, 0.01),
    "small": report([True] * 5 + [False] * 3, 0.001),
    "medium": report([True] * 6 + [False, True], 0.004),
}


def open_matrix(tmp_path: Path, then: str = "") -> tuple[WorkbenchApp, Any]:
    (tmp_path / "empty").mkdir()
    app = WorkbenchApp(tmp_path / "empty", watch_files=False)

    async def shown(pilot: Pilot[Any]) -> None:
        await pilot.app.push_screen(MatrixScreen(build_matrix(REPORTS), REPORTS))
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MatrixScreen))
        if then:
            await pilot.press(then)
            await wait_for(pilot, lambda: isinstance(pilot.app.screen, TranscriptPairScreen))
        await pilot.pause()

    return app, shown


def test_the_matrix(snap_compare: Any, tmp_path: Path) -> None:
    app, shown = open_matrix(tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=shown)


def test_two_transcripts_side_by_side(snap_compare: Any, tmp_path: Path) -> None:
    app, shown = open_matrix(tmp_path, then="T")
    assert snap_compare(app, terminal_size=SIZE, run_before=shown)
