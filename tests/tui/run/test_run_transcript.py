"""The event pane's transcript layout (ctrl+t), in the run view and the report browser,
from a real run of the plain weather agent in a worker process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.common.transcript_view import TranscriptPane, TranscriptView
from tenxeval_tui.widgets.reports.case_detail_view import CaseDetailView
from tenxeval_tui.widgets.reports.report_cases import ReportCaseTable
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.hostile_text import HOSTILE, RAW_CONTROL
from tests.report_samples import write_reports
from tests.tui.browser_app import BrowserApp, open_current_report
from tests.waiting import wait_for

from .conftest import open_run_screen, write_workspace
from .test_run_snapshots import StableApp

OSLO_TRANSCRIPT = [
    "● user",
    "  Weather in Oslo?",
    "▸ MAIN",
    "  → calls get_weather",
    '⚙ get_weather(city="Oslo")',
    "  → sunny in Oslo",
    "▸ MAIN",
    "  It is sunny in Oslo.",
]

HOSTILE_REPLY = " ".join(HOSTILE.values()) + " [bold red]not markup[/] " + "word " * 60

HOSTILE_AGENT = f"""
from tenxeval_tui.evaluation import Trace

REPLY = {HOSTILE_REPLY!r}

async def agent(message: str, trace: Trace) -> str:
    trace.node("MAIN", tool_calls=["lookup"])
    await trace.tool("lookup", {{"q": REPLY[:40]}}, lambda q: REPLY)
    trace.node("MAIN", response=REPLY)
    return REPLY
"""


async def run_to_end(
    pilot: Pilot[Any], concurrency: str = "2", preset: str | None = None
) -> RunScreen:
    screen = await open_run_screen(pilot)
    assert isinstance(screen, RunScreen)
    screen.query_one("#concurrency").value = concurrency  # type: ignore[attr-defined]
    if preset is not None:
        screen.query_one("#preset").value = preset  # type: ignore[attr-defined]
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run to finish")
    return screen


async def follow(pilot: Pilot[Any], screen: RunScreen, key: str) -> None:
    # The live run's state can hold a case a frame before the table shows its row.
    table = screen.query_one(RunCaseTable)
    await wait_for(pilot, lambda: table.move_to(key), what=f"the row of {key}")
    await wait_for(pilot, lambda: screen.selected == key)
    screen.repaint()
    await pilot.pause()


async def test_the_event_pane_switches_to_the_case_transcript_and_back(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await run_to_end(pilot)
        await follow(pilot, screen, "cities::oslo")
        events, pane = screen.query_one(EventStream), screen.query_one(TranscriptPane)
        assert events.display and not pane.display
        shown_keys = {b.binding.key: b.binding.description for b in screen.active_bindings.values()}
        assert shown_keys.get("ctrl+t") == "Transcript"  # in the footer
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: pane.display and pane.plain)
        assert not events.display
        lines = pane.plain.splitlines()
        assert lines[: len(OSLO_TRANSCRIPT)] == OSLO_TRANSCRIPT
        rest = "\n".join(lines[len(OSLO_TRANSCRIPT) :])
        assert "◇ expected reply\n  Storms over Bergen, stay home." in rest
        assert "⚖ response_match_score  0.00 / 0.80  ✗ failed\n  ROUGE-1" in rest
        assert "⚖ tool_trajectory_avg_score" in rest

        # Following another case shows its transcript; the errored one says its error.
        await follow(pilot, screen, "more::kyiv")
        await wait_for(pilot, lambda: "boom in Kyiv?" in pane.plain)
        assert "✗ error" in pane.plain
        assert "weather service down" in pane.plain

        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: events.display and not pane.display)


async def test_the_transcript_grows_while_the_case_runs(tmp_path: Path) -> None:
    from .test_run_snapshots import PAUSING_AGENT

    root = write_workspace(tmp_path / "project", agent_code=PAUSING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        await pilot.press("ctrl+t")
        screen.query_one("#concurrency").value = "3"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        pane = screen.query_one(TranscriptPane)

        def rome_first_step() -> bool:
            live = screen.live
            return live is not None and len(live.cases.get("cities::rome", _NONE).events) >= 1

        await wait_for(pilot, rome_first_step, what="Rome's first model step")
        await follow(pilot, screen, "cities::rome")
        await wait_for(pilot, lambda: "▸ MAIN" in pane.plain)
        assert pane.plain.splitlines()[:4] == [
            "● user",
            "  Weather in Rome?",
            "▸ MAIN",
            "  → calls get_weather",
        ]
        assert "⚖" not in pane.plain  # not judged yet
        await screen.cancel_run()
        await wait_for(pilot, lambda: screen.runs_finished == 1)


class _Empty:
    events: list[object] = []


_NONE: Any = _Empty()


async def test_a_hostile_reply_stays_inert_and_long_lines_wrap(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=HOSTILE_AGENT)
    (root / "evals" / "more.evalset.json").unlink()
    app = WorkbenchApp(root)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await run_to_end(pilot)
        await follow(pilot, screen, "cities::paris")
        await pilot.press("ctrl+t")
        pane = screen.query_one(TranscriptPane)
        await wait_for(pilot, lambda: "⚖" in pane.plain)
        shown = pane.plain
        assert not RAW_CONTROL.search(shown)
        assert "before␛[2Jafter" in shown
        assert "user⟦U+202E⟧txt.exe" in shown
        assert "[bold red]not markup[/]" in shown  # shown as typed, not parsed
        # What reaches the screen holds no raw control either (the rendered lines).
        rendered = [strip.text for strip in pane.lines]
        assert not RAW_CONTROL.search("\n".join(rendered))
        # The reply of 300-odd characters wraps in the 100-column terminal's pane.
        assert max(len(line) for line in shown.splitlines()) > pane.size.width
        assert len(rendered) > len(shown.splitlines())
        assert max(len(line.rstrip()) for line in rendered) <= pane.scrollable_content_region.width


async def test_the_report_browser_shows_the_same_transcript(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await run_to_end(pilot)
        # The case screen opened from the run view (the case's full result from its report).
        await follow(pilot, screen, "cities::oslo")
        await pilot.press("enter")
        # the case's view composes its parts after the screen is shown
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, CaseScreen)
                and bool(app.screen.query("CaseDetailView TranscriptView"))
            ),
            what="the case screen's transcript view",
        )
        view = app.screen.query_one(CaseDetailView)
        transcript = view.query_one(TranscriptView)
        assert not transcript.display
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: transcript.display and transcript.plain)
        assert transcript.plain.splitlines()[: len(OSLO_TRANSCRIPT)] == OSLO_TRANSCRIPT
        assert "◇ expected reply\n  Storms over Bergen, stay home." in transcript.plain
        assert not view.query_one("#case-sections").display
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: view.query_one("#case-sections").display)
        assert not transcript.display
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))

        # The report of the run in the report browser: open Oslo, then its transcript.
        assert screen.query_one(RunCaseTable).move_to("cities::oslo")
        await pilot.press("v")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document is not None
        )
        report = app.screen
        assert isinstance(report, ReportScreen)
        table = report.query_one(ReportCaseTable)
        table.focus()
        await wait_for(pilot, lambda: table.row_count == 3)
        while report.showing_case is None or report.showing_case.eval_id != "oslo":
            await pilot.press("enter" if report.showing_case is None else "down")
            await pilot.pause()
        await pilot.press("ctrl+t")
        shown = report.query_one("#report-case").query_one(TranscriptView)
        await wait_for(pilot, lambda: shown.display and "Weather in Oslo?" in shown.plain)
        assert shown.plain.splitlines()[: len(OSLO_TRANSCRIPT)] == OSLO_TRANSCRIPT
        # Moving to another case keeps the transcript layout, with that case in it.
        await pilot.press("up")
        await wait_for(pilot, lambda: "Weather in Oslo?" not in shown.plain)
        assert shown.plain.startswith("● user\n  Weather in ")


def test_run_view_transcript_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")

    async def transcript(pilot: Pilot[Any]) -> None:
        screen = await run_to_end(pilot)
        await follow(pilot, screen, "cities::oslo")
        await pilot.press("ctrl+t")
        pane = screen.query_one(TranscriptPane)
        await wait_for(pilot, lambda: "⚖" in pane.plain)
        await pilot.pause()

    assert snap_compare(StableApp(root), terminal_size=(120, 36), run_before=transcript)


def test_report_case_transcript_snapshot(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report browser's case in its transcript layout (a fixed report: stable timings)."""
    monkeypatch.chdir(tmp_path)
    write_reports(tmp_path / "eval_reports")

    async def transcript(pilot: Pilot[Any]) -> None:
        screen = await open_current_report(pilot)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        await pilot.press("ctrl+t")
        view = screen.query_one("#report-case").query_one(TranscriptView)
        await wait_for(pilot, lambda: view.display and "⚖" in view.plain)
        await pilot.pause()

    app = BrowserApp("eval_reports")
    assert snap_compare(app, terminal_size=(130, 40), run_before=transcript)


async def test_the_pane_renders_only_its_last_blocks_and_appends_the_new_ones() -> None:
    from textual.app import App, ComposeResult

    from tenxeval_tui.runs.transcript import BlockKind, TranscriptBlock
    from tenxeval_tui.widgets.common.transcript_view import PANE_SHOWN_BLOCKS

    class PaneApp(App[None]):
        def compose(self) -> ComposeResult:
            yield TranscriptPane()

    blocks = [TranscriptBlock(BlockKind.MODEL, f"N{i}", f"step {i}") for i in range(500)]
    async with PaneApp().run_test(size=(60, 20)) as pilot:
        pane = pilot.app.query_one(TranscriptPane)
        pane.show(blocks[:300])
        await pilot.pause()
        assert pane.written == PANE_SHOWN_BLOCKS
        assert pane.plain.startswith("(100 earlier blocks left out)\n▸ N100\n  step 100")
        pane.append(blocks[300:])  # the view keeps a bounded number, counting the rest
        await pilot.pause()
        assert pane.written <= 2 * PANE_SHOWN_BLOCKS
        assert pane.plain.endswith("▸ N499\n  step 499")
        dropped = int(pane.plain.split(" ", 1)[0].lstrip("("))
        assert dropped + pane.written == 500
