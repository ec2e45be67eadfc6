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


async def test_a_selections_cases_not_run_say_so_in_the_matrix_and_side_by_side(
    tmp_path: Path,
) -> None:
    """A rerun of some cases (``metadata.selection``) is a column: the cases it did not
    run say ``not run``, as the command line's matrix says (was ``-``); a variant of every
    case that lacks a case keeps ``-``."""
    from textual.widgets import DataTable

    rerun = report([True, False], 0.002)
    rerun.metadata["selection"] = {"by": "rerun_failed", "cases": 2, "of": 8}
    short = report([True] * 6, 0.003)  # every case of its (older) eval set: no mark
    reports = {"large": REPORTS["large"], "rerun": rerun, "short": short}
    (tmp_path / "empty").mkdir()
    app = WorkbenchApp(tmp_path / "empty", watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = MatrixScreen(build_matrix(reports), reports)
        await app.push_screen(screen)
        await wait_for(pilot, lambda: isinstance(app.screen, MatrixScreen))
        table = screen.query_one("#matrix-cases", DataTable)
        await wait_for(pilot, lambda: table.row_count == 8)
        names = screen.matrix.names
        cells = {
            str(table.get_row(key)[0]).removeprefix("support/"): dict(
                zip(names, map(str, table.get_row(key)[1:]), strict=True)
            )
            for key in map(str, range(table.row_count))
        }
        assert cells["case-7"]["rerun"] == "not run"  # before: "-"
        assert cells["case-7"]["short"] == "-"
        assert cells["case-1"]["rerun"] == "FAIL" and cells["case-1"]["large"] == "pass"
        row = screen.rows.index(next(r for r in screen.rows if r.eval_id == "case-7"))
        table.move_cursor(row=row, column=names.index("rerun") + 1)
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, TranscriptPairScreen))
        heads = [
            str(w.render()) for w in app.screen.query("Static") if "case-7 (" in str(w.render())
        ]
        assert "rerun: case-7 (not run)" in heads
