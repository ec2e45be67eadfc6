"""The run view's variants (key m): choose some of [tool.tenxeval] variants, run them side
by side live (one column each), browse their matrix: a cell's case detail, two variants'
transcripts of a case side by side. Real workers, plain agents of known pass rates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.widgets import DataTable, SelectionList

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.matrix import MatrixScreen, TranscriptPairScreen
from tenxeval_tui.screens.run.variant_run import VariantRunScreen
from tenxeval_tui.widgets.common.transcript_view import TranscriptView
from tenxeval_tui.widgets.run.variant_columns import VariantColumns
from tests.evaluation.rate_agents import EXACT, rate_set
from tests.waiting import wait_for

from .conftest import open_run_screen

ROOT = Path(__file__).resolve().parents[3]
CASES = 10


def variants_workspace(root: Path) -> Path:
    """rate_agents.py; 10 cases; three variants: strong (0.9, held at c5 until the file
    `release` exists), half (0.5), spare (not run by the tests)."""
    root.mkdir(parents=True)
    shutil.copy(ROOT / "tests/evaluation/rate_agents.py", root / "rate_agents.py")
    (root / "evals").mkdir()
    (root / "evals/rates.evalset.json").write_text(rate_set(CASES).model_dump_json())
    (root / "config.json").write_text(json.dumps({"criteria": EXACT}))
    hold = root / "release"
    (root / "pyproject.toml").write_text(
        "[tool.tenxeval]\n"
        'agent = "rate_agents:rate_agent"\noutput_dir = "reports"\nconfig = "config.json"\n'
        "concurrency = 1\n\n"
        f'[[tool.tenxeval.variants]]\nname = "strong"\n'
        f'params = {{ rate = 0.9, cases = {CASES}, hold = "{hold}", hold_at = 5 }}\n\n'
        f'[[tool.tenxeval.variants]]\nname = "half"\nparams = {{ rate = 0.5, cases = {CASES} }}\n\n'
        '[[tool.tenxeval.variants]]\nname = "spare"\nparams = { rate = 0.1 }\n',
        encoding="utf-8",
    )
    return root


async def test_variants_run_side_by_side_live_and_their_matrix_is_browsed(
    tmp_path: Path,
) -> None:
    root = variants_workspace(tmp_path / "ws")
    app = WorkbenchApp(root)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_run_screen(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, VariantRunScreen))
        screen = app.screen
        assert isinstance(screen, VariantRunScreen)
        choice = screen.query_one(SelectionList)
        assert choice.selected == ["strong", "half", "spare"]
        # Untick "spare": the third option, by keyboard.
        await pilot.press("down", "down", "space")
        assert [v.name for v in screen.chosen] == ["strong", "half"]
        await pilot.press("ctrl+r")
        columns = screen.query_one(VariantColumns)
        # Live: half finishes every case while strong still runs c5 (held).
        await wait_for(
            pilot,
            lambda: (
                "rates::c9" in columns.rows
                and columns.marks("rates::c9")["half"] == "FAIL"
                and columns.marks("rates::c5")["strong"] == "running"
            ),
            what="half done, strong running c5",
        )
        assert columns.marks("rates::c0") == {"strong": "pass", "half": "pass"}
        assert columns.marks("rates::c6")["strong"] == "·"  # queued behind c5
        (root / "release").write_text("go")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the variants to end")
        assert columns.marks("rates::c8") == {"strong": "pass", "half": "FAIL"}
        assert columns.marks("rates::c9") == {"strong": "FAIL", "half": "FAIL"}
        assert screen.live is not None and screen.live.matrix is not None
        assert screen.live.matrix.names == ["strong", "half"]
        for name in ("strong", "half"):
            (report,) = (root / "reports" / name).glob("*.json")
            assert json.loads(report.read_text())["metadata"]["variant"] == name
        assert len(list((root / "reports").glob("matrix-*.json"))) == 1
        # The matrix: separating cases first (c5..c8: strong passes, half fails).
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, MatrixScreen))
        matrix_screen = app.screen
        assert isinstance(matrix_screen, MatrixScreen)
        assert [r.eval_id for r in matrix_screen.rows[:4]] == ["c5", "c6", "c7", "c8"]
        table = matrix_screen.query_one("#matrix-cases", DataTable)
        assert table.cursor_coordinate == (0, 1)  # c5, strong
        await pilot.press("right", "enter")  # c5 in half
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen))
        case_screen = app.screen
        assert isinstance(case_screen, CaseScreen)
        assert case_screen.result.eval_id == "c5" and not case_screen.result.passed
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is matrix_screen)
        await pilot.press("T")  # c5: half's transcript beside strong's
        await wait_for(pilot, lambda: isinstance(app.screen, TranscriptPairScreen))
        pair = app.screen
        assert isinstance(pair, TranscriptPairScreen)
        assert pair.names == ("half", "strong")
        left, right = (v.plain for v in pair.query(TranscriptView))
        assert "wrong" in left and "right" in right
