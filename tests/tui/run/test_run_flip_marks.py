"""The run view marks the cases that flipped: over their eval set's last runs (before and
during the run), and those whose repeats disagree in this run (a real worker)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalCaseResult
from tenxeval_tui.runs.live_run import CaseStatus, LiveRun
from tenxeval_tui.widgets.run.run_case_table import FLIP_LEGEND, RunCaseTable
from tests.tui.common.test_flip_marks import BAD, OK, write_run
from tests.tui.conftest import notifications
from tests.waiting import wait_for

from .conftest import AGENT, open_run_screen, write_workspace
from .test_run_live_steps import rome_workspace, start_and_select_rome

PARIS, ROME = "cities::paris", "cities::rome"

# Rome's reply is wrong on every second call: of two repeats, one passes and one fails.
ALTERNATING_AGENT = AGENT.replace(
    '    reply = f"It is {report}."\n',
    '    reply = f"It is {report}."\n'
    '    if city == "Rome":\n'
    "        CALLS.append(city)\n"
    '        reply = reply if len(CALLS) % 2 else "No idea."\n',
).replace("import asyncio\n", "import asyncio\n\nCALLS = []\n", 1)


async def test_a_case_that_flipped_before_is_marked_while_it_runs(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)  # Rome's tool call waits for the file "release"
    reports = root / "reports"
    write_run(reports, 0, {"paris": OK, "rome": OK, "oslo": BAD}, "cities")
    write_run(reports, 1, {"paris": OK, "rome": BAD, "oslo": BAD}, "cities")
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await start_and_select_rome(pilot)
        table = screen.query_one(RunCaseTable)
        await wait_for(pilot, lambda: table.flipped_keys == [ROME], what="rome marked")
        live = screen.live
        assert live is not None  # marked from the history: queued or running
        assert live.cases[ROME].status in (CaseStatus.QUEUED, CaseStatus.RUNNING)
        await wait_for(pilot, lambda: live.cases[ROME].status == CaseStatus.RUNNING)
        assert table.flipped_keys == [ROME]
        assert case_text(table, ROME) == "~ rome"
        assert case_text(table, PARIS) == "paris"
        assert table.border_subtitle == FLIP_LEGEND

        # a report lands in which paris failed: paris flipped too
        later = repeats_at(reports, time.time() + 86400, {"paris": BAD, "rome": BAD})
        assert later.is_file()
        await wait_for(pilot, lambda: table.flipped_keys == [PARIS, ROME], what="paris marked too")
        (root / "release").touch()
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        marks = screen.flip_marks
        await wait_for(
            pilot,
            lambda: "cities" in marks.histories and marks.histories["cities"].runs == 4,
            what="this run's report read",
        )
        assert table.flipped_keys == [PARIS, ROME]  # oslo failed every run: not flipped


def case_text(table: RunCaseTable, key: str) -> str:
    """The case cell of ``key``'s row."""
    return table.cells_of(key)[list(table.plan.widths).index("case")].plain


def repeats_at(folder: Path, timestamp: float, cases: dict[str, list[bool]]) -> Path:
    from tests.repeat_samples import repeats_report

    report = repeats_report(cases, timestamp)
    report.eval_set_id = "cities"
    path = folder / "cities_later.json"
    report.to_file(path)
    return path


async def test_no_history_no_marks(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)
    (root / "release").touch()
    async with WorkbenchApp(root, watch_files=False).run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        table = screen.query_one(RunCaseTable)
        marks = screen.flip_marks
        await wait_for(
            pilot,
            lambda: "cities" in marks.histories and marks.histories["cities"].runs == 1,
            what="this run's report read",
        )
        assert table.row_count == 3 and table.flipped_keys == []
        assert table.border_subtitle == ""
        assert not notifications(pilot.app)


async def test_repeats_that_disagree_in_this_run_are_marked(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=ALTERNATING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()
    (root / "evals" / "config.json").write_text(json.dumps({"repeats": 2}), "utf-8")
    settings = root / "pyproject.toml"
    settings.write_text(
        settings.read_text("utf-8") + 'config = "evals/config.json"\n', encoding="utf-8"
    )
    async with WorkbenchApp(root, watch_files=False).run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        table = screen.query_one(RunCaseTable)
        assert screen.live is not None and screen.live.cases[ROME].repeats_disagree
        assert table.flipped_keys == [ROME]
        assert case_text(table, ROME) == "~ rome"
        assert table.border_subtitle == FLIP_LEGEND
        # a selection's count takes the border while there is one; the legend comes back
        table.focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: table.border_subtitle == "1 selected · esc clears")
        await pilot.press("escape")
        await wait_for(pilot, lambda: table.border_subtitle == FLIP_LEGEND)


def test_repeats_disagree_as_soon_as_one_passed_and_one_did_not() -> None:
    run = LiveRun()
    ok = EvalCaseResult(eval_id="rome", passed=True)
    bad = EvalCaseResult(eval_id="rome", passed=False)
    run.on_repeat_end("cities", "rome", ok, 3)
    assert not run.cases[ROME].repeats_disagree
    run.on_repeat_end("cities", "rome", ok, 3)
    assert not run.cases[ROME].repeats_disagree
    run.on_repeat_end("cities", "rome", bad, 3)
    assert run.cases[ROME].repeats_disagree  # before the case's end
