"""The run view's figures: progress never goes back, elapsed time follows each run, and
watch mode runs once when turned on."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Checkbox, ProgressBar

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSet
from tenxeval_tui.runs.watch import ChangeWatcher
from tenxeval_tui.screens.run import run_watch
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_progress import RunFigures
from tests.waiting import wait_for

from .conftest import AGENT, open_run_screen, write_workspace

# The Rome case naps long enough for the elapsed time to tick while it runs.
NAPPING_AGENT = AGENT.replace(
    '    if "slow" in message:',
    '    if "Rome" in message:\n        await asyncio.sleep(1.6)\n    if "slow" in message:',
)


# The Rome case sleeps until the run is cancelled.
SLEEPING_AGENT = AGENT.replace(
    '    if "slow" in message:',
    '    if "Rome" in message:\n        await asyncio.sleep(60)\n    if "slow" in message:',
)


# Every case takes a moment, so the bar is painted between cases.
STEADY_AGENT = AGENT.replace(
    '    if "slow" in message:', '    await asyncio.sleep(0.3)\n    if "slow" in message:'
)


def elapsed_of(text: str) -> str:
    """The ``elapsed 3s`` figure of the run view's figures line."""
    return text.split("elapsed ", 1)[1].split()[0]


def figures(screen: RunScreen) -> str:
    return screen.query_one(RunFigures).text.plain


async def test_progress_never_goes_back_and_the_total_is_known_from_the_start(
    tmp_path: Path,
) -> None:
    app = WorkbenchApp(write_workspace(tmp_path / "project", agent_code=STEADY_AGENT))
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        bar = screen.query_one(ProgressBar)
        posted: list[tuple[float | None, float]] = []
        update = bar.update

        def recording(*args: Any, **kwargs: Any) -> None:
            update(*args, **kwargs)
            if screen.live is not None:  # a run's, not the empty bar's before it
                posted.append((bar.total, bar.progress))

        bar.update = recording  # type: ignore[method-assign]
        screen.query_one("#concurrency").value = "1"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")  # two eval sets: cities (3 cases), then more (2)
        await wait_for(pilot, lambda: screen.runs_finished == 1)
    # Until the worker says what it runs the bar shows no share (total None), then 5 always.
    known = [(total, progress) for total, progress in posted if total is not None]
    assert known, "the bar never showed a share"
    assert all(total is None for total, _ in posted[: len(posted) - len(known)])
    totals = {total for total, _ in known}
    assert totals == {5}, f"the total changed during the run: {known}"
    shares = [progress / total for total, progress in known]
    assert shares == sorted(shares), f"progress went back: {shares}"
    assert shares[-1] == 1.0
    assert len(set(shares)) > 2  # it moved case by case, not only at the end


async def test_turning_watch_on_runs_once_then_watches(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        await pilot.press("w")  # after a run too: docs/workbench/run-view.md says it runs once
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        assert screen.runs_started == 2 and screen.watcher.active
        cities = workspace / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        eval_set.eval_cases[0].name = "renamed"
        eval_set.to_file(cities)
        await wait_for(pilot, lambda: screen.runs_finished == 3)  # then it watches
        assert screen.request is not None
        assert screen.request.only == {str(cities.resolve()): [eval_set.eval_cases[0].eval_id]}


async def test_watch_reads_the_eval_sets_off_the_ui_thread_and_a_quick_off_wins(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``w`` reads the eval sets in a thread (the tick shows, keys go on meanwhile); a
    second ``w`` before the reading ends leaves watch mode off: no run, no watching."""
    reading = threading.Event()
    release = threading.Event()
    threads: list[threading.Thread] = []

    class SlowWatcher(ChangeWatcher):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            threads.append(threading.current_thread())
            reading.set()
            release.wait(timeout=30)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(run_watch, "ChangeWatcher", SlowWatcher)
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)
        watch = screen.query_one("#watch", Checkbox)
        await pilot.press("w")
        await wait_for(pilot, reading.is_set)
        assert watch.value  # ticked while the eval sets are still being read
        await pilot.press("w")
        await wait_for(pilot, lambda: not watch.value)
        release.set()
        watching = [w for w in app.workers if w.node is screen and w.group == "watch"]
        await wait_for(pilot, lambda: all(w.is_finished for w in watching))
        assert threads and threads[0] is not threading.main_thread()
        assert not screen.watcher.active and screen.runs_started == 0


async def test_elapsed_time_follows_a_watch_rerun(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=NAPPING_AGENT)
    (root / "evals" / "more.evalset.json").unlink()
    app = WorkbenchApp(root, watch_runs=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))
        screen = app.screen
        assert isinstance(screen, RunScreen)
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        first = screen.live
        assert first is not None
        # The run's own figure, once its last repaint is in (it may land a tick after).
        await wait_for(
            pilot,
            lambda: f"elapsed {first.elapsed():.0f}s" in figures(screen),
            what="the first run's final elapsed time shown",
        )
        cities = root / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        rome = next(c for c in eval_set.eval_cases if c.eval_id == "rome")
        rome.name = "Rome again"
        eval_set.to_file(cities)
        await wait_for(pilot, lambda: screen.live is not first)
        second = screen.live
        assert second is not None
        seen: set[str] = set()

        def ticked() -> bool:  # the figure shows the rerun's time, second by second
            if not second.done:
                seen.add(elapsed_of(figures(screen)))
            return len(seen) >= 2 or second.done

        await wait_for(pilot, ticked)
        assert len(seen) >= 2, f"the elapsed time stood still during the rerun: {seen}"
        await wait_for(pilot, lambda: screen.runs_finished == 2)
        await wait_for(
            pilot,
            lambda: f"elapsed {second.elapsed():.0f}s" in figures(screen),
            what="the rerun's final elapsed time shown",
        )


async def test_the_run_view_clocks_run_only_while_a_run_is_shown(tmp_path: Path) -> None:
    """The run view's repaint and tick wake it only while a run is in progress and the view
    is shown: not before a run, paused while another screen is shown, running again back
    and under a dialog (the view shows through), stopped once the run has ended."""
    app = WorkbenchApp(write_workspace(tmp_path / "project", agent_code=SLEEPING_AGENT))
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert isinstance(screen, RunScreen)

        def running() -> list[bool]:
            return [clock._active.is_set() for clock in screen.clocks]

        await pilot.pause()
        assert running() == [False, False]  # nothing runs: nothing to repaint
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.running and running() == [True, True])
        await pilot.press("e")
        await wait_for(pilot, lambda: app.screen is not screen and running() == [False, False])
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen is screen and running() == [True, True])
        await pilot.press("question_mark")  # the help dialog, over the view
        await wait_for(pilot, lambda: app.screen.is_modal)
        await pilot.pause()
        assert running() == [True, True]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await screen.cancel_run()  # Rome sleeps a minute: the run ends here
        await wait_for(pilot, lambda: screen.runs_finished == 1 and running() == [False, False])
