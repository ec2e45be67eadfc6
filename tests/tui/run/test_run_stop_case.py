"""Stopping one case from the run view (cancelled, or scored as it is), ending its tool call
in flight (the agent sees a timeout), then running the rest of a stopped run: a real
worker, an agent whose tool call for Rome blocks until released; in one process, and with
2 worker processes (the command reaches the pooled worker running Rome)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.event_stream import EventStream
from tests.tui.conftest import notifications
from tests.waiting import wait_for

from .test_run_live_steps import rome_workspace, row_text, start_and_select_rome

ROME = "cities::rome"
WORKERS = pytest.mark.parametrize("workers", [None, 2], ids=["one-process", "2-workers"])


def workspace(tmp_path: Path, workers: int | None) -> Path:
    """The Rome workspace, its runs handed out to ``workers`` worker processes."""
    root = rome_workspace(tmp_path)
    if workers is not None:
        settings = root / "pyproject.toml"
        settings.write_text(settings.read_text("utf-8") + f"workers = {workers}\n", "utf-8")
    return root


def pooled_as_asked(screen: RunScreen, workers: int | None) -> None:
    assert screen.request is not None and screen.request.workers == workers


async def rome_in_flight(pilot: Pilot[Any]) -> RunScreen:
    screen = await start_and_select_rome(pilot)
    await wait_for(pilot, lambda: "calling get_weather" in row_text(screen, ROME))
    await wait_for(pilot, lambda: screen.check_action("stop_case", ()) is True)
    return screen


async def choose(pilot: Pilot[Any], key: str) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    await pilot.press(key)


def status_of(screen: RunScreen, key: str) -> CaseStatus | None:
    live = screen.live
    return live.cases[key].status if live is not None and key in live.cases else None


@WORKERS
async def test_stopping_one_case_cancels_it_and_the_run_goes_on(
    tmp_path: Path, workers: int | None
) -> None:
    root = workspace(tmp_path, workers)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await rome_in_flight(pilot)
        pooled_as_asked(screen, workers)
        await pilot.press("x")
        await choose(pilot, "c")  # Cancel it
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        live = screen.live
        assert live is not None and not live.partial  # the run itself ran to its end
        assert status_of(screen, ROME) == CaseStatus.CANCELLED
        rome = live.cases[ROME].result
        assert rome is not None and rome.error is not None and "cancelled by the user" in rome.error
        assert status_of(screen, "cities::paris") == CaseStatus.PASSED
        assert status_of(screen, "cities::oslo") == CaseStatus.FAILED
        await wait_for(
            pilot,
            lambda: any("stopped: it is cancelled" in n for n in notifications(pilot.app)),
            what="the toast",
        )


@WORKERS
async def test_a_stopped_case_can_be_scored_on_what_it_did(
    tmp_path: Path, workers: int | None
) -> None:
    root = workspace(tmp_path, workers)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await rome_in_flight(pilot)
        pooled_as_asked(screen, workers)
        await pilot.press("x")
        await choose(pilot, "s")  # Score what it did so far
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        assert screen.live is not None
        rome = screen.live.cases[ROME].result
        assert rome is not None and rome.error is None
        assert rome.metadata["stopped_early"] is True
        assert rome.criterion_results and status_of(screen, ROME) == CaseStatus.FAILED


@WORKERS
async def test_ending_the_tool_call_in_flight_makes_the_agent_see_a_timeout(
    tmp_path: Path, workers: int | None
) -> None:
    root = workspace(tmp_path, workers)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await rome_in_flight(pilot)
        pooled_as_asked(screen, workers)
        await pilot.press("t")  # asks first: it cannot be undone
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
        await pilot.press("e")  # end the call
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        assert screen.live is not None
        rome = screen.live.cases[ROME].result
        assert rome is not None and rome.error is None
        assert rome.actual_response == "The weather service timed out."
        lines = [str(line) for line in screen.query_one(EventStream).lines]
        assert any("⚙ get_weather" in line and "ToolCallTimeout" in line for line in lines)
        await wait_for(
            pilot,
            lambda: any("Ended get_weather" in n for n in notifications(pilot.app)),
            what="the toast",
        )


async def cancelled_with_rome_unfinished(pilot: Pilot[Any]) -> RunScreen:
    """The run cancelled once Paris and Oslo finished, Rome blocked in its tool call."""
    screen = await rome_in_flight(pilot)
    await wait_for(pilot, lambda: screen.live is not None and screen.live.completed == 2)
    await screen.cancel_run()
    await wait_for(pilot, lambda: screen.runs_finished == 1)
    return screen


async def test_a_cancelled_run_offers_to_run_the_rest(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await cancelled_with_rome_unfinished(pilot)
        message = str(screen.query_one("#run-message", Static).render())
        assert "u runs the rest here" in message
        assert "tenxeval-tui run evals/cities.evalset.json" in message and "--resume" in message
        assert screen.check_action("resume", ()) is True

        (root / "release").write_text("go", encoding="utf-8")
        await pilot.press("u")
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        assert status_of(screen, ROME) == CaseStatus.PASSED
        assert status_of(screen, "cities::paris") == CaseStatus.CARRIED


def json_reports(root: Path) -> list[Path]:
    return sorted((root / "reports").glob("*.json"))


async def test_running_the_rest_writes_the_complete_report_as_run_resume_does(
    tmp_path: Path,
) -> None:
    """#29: ``u`` wrote a report of only the cases it ran (Rome); ``run --resume`` writes one
    of every case: so does ``u``, with the finished ones from the stopped run's journal."""
    import json

    root = rome_workspace(tmp_path)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await cancelled_with_rome_unfinished(pilot)
        (partial,) = json_reports(root)  # the cancelled run's: Paris and Oslo, partial
        data = json.loads(partial.read_text())
        assert [r["eval_id"] for r in data["results"]] == ["paris", "oslo"]
        assert data["metadata"]["partial"] is True

        (root / "release").write_text("go", encoding="utf-8")
        await pilot.press("u")
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        assert screen.live is not None and len(screen.live.report_files) >= 1
        (complete,) = [Path(f) for f in screen.live.report_files if f.endswith(".json")]
        assert complete != partial and complete in json_reports(root)
        data = json.loads(complete.read_text())
        assert [r["eval_id"] for r in data["results"]] == ["paris", "rome", "oslo"]
        assert not data["metadata"].get("partial")
        assert data["summary"]["total_cases"] == 3
        message = str(screen.query_one("#run-message", Static).render())
        assert "They hold every case of the run: the 1 run now and the 2 finished before" in message


async def test_a_rest_cancelled_in_its_turn_is_resumed_again_from_both_journals(
    tmp_path: Path,
) -> None:
    import json

    root = rome_workspace(tmp_path)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await cancelled_with_rome_unfinished(pilot)
        await pilot.press("u")  # Rome blocks again: cancel the rest too
        await wait_for(pilot, lambda: status_of(screen, ROME) == CaseStatus.RUNNING)
        await screen.cancel_run()
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        assert screen.check_action("resume", ()) is True

        (root / "release").write_text("go", encoding="utf-8")
        await pilot.press("u")
        await wait_for(pilot, lambda: screen.runs_finished == 3)
        assert screen.request is not None
        assert screen.request.only == {str(root / "evals" / "cities.evalset.json"): ["rome"]}
        assert status_of(screen, "cities::paris") == CaseStatus.CARRIED
        assert screen.live is not None
        (complete,) = [Path(f) for f in screen.live.report_files if f.endswith(".json")]
        data = json.loads(complete.read_text())
        assert [r["eval_id"] for r in data["results"]] == ["paris", "rome", "oslo"]
        assert not data["metadata"].get("partial")


async def test_the_rest_is_not_run_when_the_config_changed_how_it_scores(tmp_path: Path) -> None:
    """#30: the rest would be scored with the edited config and the finished cases with the
    first, in one report: u says why it does not run it."""
    import json

    root = rome_workspace(tmp_path)
    config = root / "scoring.json"
    config.write_text(json.dumps({"repeats": 1}))
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text("utf-8") + 'config = "scoring.json"\n', "utf-8")
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await cancelled_with_rome_unfinished(pilot)
        config.write_text(json.dumps({"repeats": 3}))  # the preset's criteria, 3 runs a case
        await pilot.press("u")
        message = screen.query_one("#run-message", Static)
        await wait_for(pilot, lambda: "Cannot run the rest" in str(message.render()))
        assert "scored with another config than this run's (they differ in repeats)" in str(
            message.render()
        )
        assert screen.runs_started == 1
