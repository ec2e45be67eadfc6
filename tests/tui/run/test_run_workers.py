"""The run screen with `workers` in [tool.tenxeval] or typed in the options bar: the cases
go to worker processes and the live view, the counts and the reports are those of one
process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tenxeval_tui.widgets.run.run_options import RunOptions
from tests.waiting import wait_for

from .conftest import AGENT, open_run_screen, write_workspace
from .test_run_screen import run_all

pytestmark = pytest.mark.many_processes

# a tool call's measured time ("[0.01s]") is the one part of an event line a busy machine changes
_DURATION = re.compile(r"  \[\d+\.\d+s\]")


def _without_durations(line: str) -> str:
    return _DURATION.sub("  [time]", line)


async def _finished_run(root: Path) -> tuple[dict[str, int], dict[str, list[str]], int | None]:
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None and screen.request is not None
        events = {
            key: [_without_durations(line) for line in case.events]
            for key, case in screen.live.cases.items()
        }
        assert all(c.status is not CaseStatus.RUNNING for c in screen.live.cases.values())
        return screen.live.counts(), events, screen.request.workers


async def test_workers_from_the_settings_show_what_one_process_shows(tmp_path: Path) -> None:
    one = write_workspace(tmp_path / "one")
    two = write_workspace(tmp_path / "two")
    settings = two / "pyproject.toml"
    settings.write_text(settings.read_text() + "workers = 2\n")
    counts_one, events_one, workers_one = await _finished_run(one)
    counts_two, events_two, workers_two = await _finished_run(two)
    assert (workers_one, workers_two) == (None, 2)
    assert counts_two == counts_one
    assert (counts_two["passed"], counts_two["failed"], counts_two["error"]) == (3, 1, 1)
    # every case's events reached the live view, in the order one process gives them
    assert events_two == events_one and sum(map(len, events_two.values())) >= 5 * 3
    reports = sorted(p.suffix for p in (two / "reports").iterdir() if p.is_file())
    assert reports == [".html", ".html", ".json", ".json"]


async def test_the_workers_field_starts_at_the_setting_and_what_is_typed_runs(
    tmp_path: Path,
) -> None:
    with_setting = write_workspace(tmp_path / "set")
    settings = with_setting / "pyproject.toml"
    settings.write_text(settings.read_text() + "workers = 3\n")
    app = WorkbenchApp(with_setting)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        field, options = screen.query_one("#workers"), screen.query_one(RunOptions)
        assert field.value == "3" and options.choice().workers == 3  # type: ignore[attr-defined]
        field.value = ""  # type: ignore[attr-defined]
        assert options.choice().workers is None  # empty: one process
        field.value = "0"  # type: ignore[attr-defined]
        assert options.choice().workers == 1  # at least one, as jobs
    plain = write_workspace(tmp_path / "plain")
    app = WorkbenchApp(plain)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        field = screen.query_one("#workers")
        assert field.value == ""  # type: ignore[attr-defined]
        field.value = "2"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run to finish")
        assert screen.request is not None and screen.request.workers == 2
        assert screen.request.pooled
        assert screen.live is not None
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == (3, 1, 1)


async def test_the_workers_field_starts_at_the_layered_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_workspace(tmp_path / "ws")
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + "workers = 3\n")

    async def starts_at() -> str:
        app = WorkbenchApp(root)
        async with app.run_test(size=(160, 40)) as pilot:
            screen = await open_run_screen(pilot)
            return str(screen.query_one("#workers").value)  # type: ignore[attr-defined]

    monkeypatch.setenv("TENXEVAL_WORKERS", "2")
    assert await starts_at() == "2"  # the environment over the project
    monkeypatch.setenv("TENXEVAL_WORKERS", "lots")
    assert await starts_at() == "3"  # a bad variable (`run` names it): the project's


async def test_a_case_whose_worker_died_is_retried_and_marked_in_the_case_table(
    tmp_path: Path,
) -> None:
    flag = tmp_path / "died-once"
    dies_once = AGENT.replace(
        "async def agent(message: str, trace: Trace) -> str:\n",
        "async def agent(message: str, trace: Trace) -> str:\n"
        f"    if 'Rome' in message and not os.path.exists({str(flag)!r}):\n"
        f"        open({str(flag)!r}, 'w').close()\n"
        "        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer does\n",
    ).replace("import asyncio\n", "import asyncio\nimport os\nimport signal\n")
    root = write_workspace(tmp_path / "ws", agent_code=dies_once)
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + "workers = 2\n")
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert flag.exists() and screen.live is not None  # a worker was killed
        table = screen.query_one(RunCaseTable)
        marked = {
            key: " ".join(cell.plain for cell in table.cells_of(key))
            for key in screen.live.cases
            if "↻" in " ".join(cell.plain for cell in table.cells_of(key))
        }
        rome = next(s.key for s in screen.live.cases.values() if s.eval_id == "rome")
        assert list(marked) == [rome]
        assert "✓ passed ↻" in marked[rome]  # it ran again, on the other worker, and passed
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == (3, 1, 1)
