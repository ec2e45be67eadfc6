"""Watch mode: a save while a run is in progress reruns only the changed cases; the cases
the change does not touch finish (#29 item 6: a save restarted the whole run). A rerun
writes one report, and the report list shows a watch session as one row (item 7)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalReport, EvalSet
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.reports.report_list import ReportList
from tests.tui.conftest import notifications
from tests.waiting import wait_for

from .conftest import open_run_screen
from .test_run_live_steps import rome_workspace


async def test_a_save_during_a_run_reruns_only_the_changed_case_after_it(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)  # rome waits in its tool call until "release" exists
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 45), notifications=True) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("w")  # watch mode: the first run starts
        await wait_for(pilot, lambda: screen.live is not None and screen.running)
        live = screen.live
        assert live is not None

        def status(key: str) -> CaseStatus | None:
            state = live.cases.get(key)
            return state.status if state is not None else None

        await wait_for(
            pilot,
            lambda: (
                status("cities::paris") == CaseStatus.PASSED
                and status("cities::rome") == CaseStatus.RUNNING
            ),
            what="paris done, rome waiting in its tool call",
        )
        cities = root / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        paris = next(c for c in eval_set.eval_cases if c.eval_id == "paris")
        paris.name = "Paris, edited"
        eval_set.to_file(cities)
        await wait_for(
            pilot,
            lambda: any("rerun when this run ends" in n for n in notifications(app)),
            what="the notice",
        )
        assert screen.live is live and screen.runs_started == 1  # not restarted
        assert live.cases["cities::rome"].status == CaseStatus.RUNNING

        (root / "release").write_text("")  # rome finishes in the first run
        await wait_for(pilot, lambda: screen.runs_finished == 2, what="the rerun")
        assert screen.runs_started == 2
        assert screen.request is not None
        assert screen.request.only == {str(cities.resolve()): ["paris"]}
        rerun = screen.live
        assert rerun is not None
        assert rerun.cases["cities::rome"].status == CaseStatus.CARRIED  # it finished before
        assert rerun.cases["cities::paris"].status == CaseStatus.PASSED


async def test_a_watch_rerun_writes_one_report_and_the_browser_lists_the_session_once(
    workspace: Path,
) -> None:
    app = WorkbenchApp(workspace, watch_runs=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the first run")
        first = set((workspace / "reports").iterdir())
        cities = workspace / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        eval_set.eval_cases[0].name = "edited"
        eval_set.to_file(cities)
        await wait_for(pilot, lambda: screen.runs_finished == 2, what="the rerun")
        written = sorted(set((workspace / "reports").iterdir()) - first)
        assert [p.suffix for p in written] == [".json"]  # one report per rerun
        rerun = EvalReport.from_file(written[0])
        firsts = [EvalReport.from_file(p) for p in first if p.suffix == ".json"]
        sessions = {r.metadata["watch"]["session"] for r in [rerun, *firsts]}
        assert len(sessions) == 1 and rerun.metadata["watch"]["run"] == 1

        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        table = app.screen.query_one(ReportList)
        await wait_for(pilot, lambda: bool(table.entries), what="the list")
        titles = [table.get_row_at(row)[0].plain for row in range(table.row_count)]
        rows_of_cities = [t for t in titles if "cities" in t.casefold()]
        assert len(rows_of_cities) == 1 and "(watch: 2 runs)" in rows_of_cities[0]
