"""The run screen end to end: a real worker process running a real agent."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalSet
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.conftest import SampleRun
from tests.tui.sample_project import demo_project
from tests.waiting import scaled, wait_for

from .conftest import open_run_screen, write_workspace


def run_screen(app: WorkbenchApp) -> RunScreen:
    screen = app.screen
    assert isinstance(screen, RunScreen)
    return screen


def finished(screen: RunScreen, runs: int = 1) -> bool:
    return screen.runs_finished == runs


def message(screen: RunScreen) -> str:
    return str(screen.query_one("#run-message", Static).render())


async def run_all(app: WorkbenchApp, pilot: object) -> RunScreen:
    screen = await open_run_screen(pilot)
    await pilot.press("ctrl+r")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: finished(screen))
    return screen


def report_marks(files: list[str]) -> dict[str, dict[str, object] | None]:
    """``eval set id -> metadata.selection`` of each JSON report of ``files``."""
    found = [json.loads(Path(f).read_text("utf-8")) for f in files if f.endswith(".json")]
    return {data["eval_set_id"]: data["metadata"].get("selection") for data in found}


def headless_counts(
    root: Path, spec: str, eval_sets: list[Path], out: Path
) -> tuple[int, int, int]:
    """Passed, failed, errored cases of `tenxeval-tui run` (the headless CLI) on ``eval_sets``."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tenxeval_tui.cli",
            "run",
            *map(str, eval_sets),
            "--agent",
            spec,
            "--output-dir",
            str(out),
            "--no-html",
            "-q",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=scaled(120),
    )
    summaries = [json.loads(p.read_text(encoding="utf-8"))["summary"] for p in out.glob("*.json")]
    assert summaries, f"the CLI wrote no report: {done.stdout}{done.stderr}"
    return (
        sum(s["passed_cases"] for s in summaries),
        sum(s["failed_cases"] for s in summaries),
        sum(s["error_cases"] for s in summaries),
    )


async def test_counts_equal_a_headless_run(workspace: Path) -> None:
    files = sorted((workspace / "evals").glob("*.evalset.json"))
    expected = headless_counts(workspace, "weather_bot:agent", files, workspace / "cli")
    assert expected == (3, 1, 1)
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == expected
        assert screen.query_one(RunCaseTable).row_count == 5
        assert "Run finished: 4 report files in reports" in message(screen)
        written = sorted(p.suffix for p in (workspace / "reports").iterdir() if p.is_file())
        assert written == [".html", ".html", ".json", ".json"]


async def test_sample_eval_sets_match_a_headless_run(
    sample_evals_run: SampleRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = demo_project(tmp_path / "demo")
    monkeypatch.chdir(repo)  # the agent is imported from here, as `make demo` does
    sample = repo / "sample_evals" / "weather_graph.evalset.json"
    spec = "sample_evals.weather_graph:build_graph"  # the agent its metadata names
    expected = sample_evals_run.counts("weather_graph")
    app = WorkbenchApp(sample)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#agent", Input).value = spec
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        assert screen.live is not None
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == expected


async def test_all_sample_eval_sets_run_each_with_their_own_agent(
    sample_evals_run: SampleRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make demo`'s workspace: two eval sets for two agents, counted as the CLI counts them."""
    repo = demo_project(tmp_path / "demo")
    monkeypatch.chdir(repo)
    summary = sample_evals_run.report["summary"]
    expected = (summary["passed_cases"], summary["failed_cases"], summary["error_cases"])
    # 14 + the 5 cases of support_tools, which pass on the default criteria (its one meant
    # failure fails on tool_end_state, which only its own config enables)
    assert expected == (19, 2, 2), sample_evals_run.output
    app = WorkbenchApp(repo / "sample_evals")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == expected


async def test_without_settings_eval_sets_run_their_own_agents_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `tenxeval-tui sample_evals` in a folder with no pyproject.toml: before, the run view
    # wanted an agent typed, and looked for it under sample_evals/ instead of here.
    repo = Path(__file__).resolve().parents[3]
    project = tmp_path / "project"
    shutil.copytree(repo / "sample_evals", project / "sample_evals")
    monkeypatch.chdir(project)
    app = WorkbenchApp("sample_evals")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None, message(screen)
        counts = screen.live.counts()
        assert (counts["passed"], counts["failed"], counts["error"]) == (19, 2, 2)


async def test_the_selected_case_streams_its_events_in_order(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        table = screen.query_one(RunCaseTable)
        assert table.move_to("cities::rome")
        stream = screen.query_one(EventStream)
        assert screen.live is not None
        # the stream follows the table's Highlighted message, handled later
        await wait_for(pilot, lambda: screen.selected == "cities::rome")
        assert stream.shown == len(screen.live.cases["cities::rome"].events) == 5
        lines = [str(line) for line in stream.lines]
        # The tool call's line ends with how long it took ("  [0.00s]"): a step's duration.
        assert re.fullmatch(r'.* → "sunny in Rome"  \[\d+\.\d\ds\]', lines[1])
        lines[1] = lines[1].rsplit("  [", 1)[0]
        assert lines == [
            "▸ MAIN → calls get_weather  [tokens 10 in / 2 out]",
            '⚙ get_weather(city="Rome") → "sunny in Rome"',
            "▸ TOOL",
            '▸ MAIN says "It is sunny in Rome."  [tokens 20 in / 4 out]',
            '■ reply "It is sunny in Rome."',
        ]


async def test_rerun_failed_runs_only_those_and_carries_the_rest(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None
        whole = report_marks(screen.live.report_files)
        assert whole and set(whole.values()) == {None}  # a run of every case: no mark
        await pilot.press("f")
        await wait_for(pilot, lambda: finished(screen, runs=2))
        assert screen.request is not None
        assert sorted(i for ids in screen.request.only.values() for i in ids) == ["kyiv", "oslo"]
        # its reports say they are a rerun of some cases, not a run of the eval sets
        marks = report_marks(screen.live.report_files)
        assert sorted(marks) == ["cities", "more"]
        assert {m["by"] for m in marks.values() if m} == {"rerun_failed"}
        assert all(m is not None and m["cases"] == 1 and m["of"] > 1 for m in marks.values())
        assert screen.live is not None
        counts = screen.live.counts()
        assert (counts["carried"], counts["failed"], counts["error"]) == (3, 1, 1)
        assert [key.split("::")[1] for key in screen.live.cases] == [
            "paris",
            "rome",
            "oslo",
            "lima",
            "kyiv",
        ]  # the rerun cases keep their places
        assert "hold the 2 cases run now; the 3 carried over" in message(screen)
        screen._follow("cities::paris")  # a carried case: its events were in the last run
        stream = screen.query_one(EventStream)
        assert list(stream.lines) == ["(carried over from the last run)"]


async def test_rerun_the_selected_case(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        table = screen.query_one(RunCaseTable)
        assert table.move_to("more::lima")
        await pilot.pause()
        await pilot.press("s")
        await wait_for(pilot, lambda: finished(screen, runs=2))
        assert screen.request is not None
        assert list(screen.request.only.values()) == [["lima"]]
        assert screen.live is not None
        (mark,) = report_marks(screen.live.report_files).values()
        assert mark is not None and (mark["by"], mark["cases"]) == ("run_again", 1)
        assert screen.live is not None
        assert screen.live.counts()["passed"] == 1
        assert screen.live.counts()["carried"] == 4


SLOW_SECOND = """
import asyncio
from tenxeval_tui.evaluation import Trace

async def agent(message: str, trace: Trace) -> str:
    if "Paris" not in message:
        await asyncio.sleep(60)
    trace.node("MAIN", response="It is sunny in Paris.")
    return "It is sunny in Paris."
"""

BLOCKING_SECOND = SLOW_SECOND.replace("await asyncio.sleep(60)", "__import__('time').sleep(60)")


@pytest.mark.parametrize("agent_code", [SLOW_SECOND, BLOCKING_SECOND], ids=["clean", "killed"])
async def test_cancel_keeps_finished_cases_in_a_partial_report(
    tmp_path: Path, agent_code: str
) -> None:
    # "clean": the worker stops on SIGTERM and writes the report; "killed": the agent
    # blocks the worker, which is killed, and the report is rebuilt from the journal.
    root = write_workspace(tmp_path / "project", agent_code=agent_code)
    (root / "evals" / "more.evalset.json").unlink()
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#concurrency").value = "1"  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.live is not None and screen.live.completed == 1)
        await pilot.press("ctrl+k")
        await pilot.press("y")
        await wait_for(pilot, lambda: finished(screen))
        assert screen.live is not None
        assert screen.live.partial
        assert screen.live.counts()["cancelled"] == 2
        assert "Partial run (cancelled)" in message(screen)
        (report,) = (root / "reports").glob("*.json")
        data = json.loads(report.read_text(encoding="utf-8"))
        assert data["metadata"]["partial"] is True
        assert [r["eval_id"] for r in data["results"]] == ["paris"]


CRASHES = {
    "segfault": (
        "import ctypes\n\nasync def agent(message, trace):\n"
        "    print('about to crash', flush=True)\n    ctypes.string_at(0)\n",
        "exited with status -11",
    ),
    "os_exit": (  # sys.exit() is an error of its case (tests/test_worker.py), os._exit is not
        "import os\n\nasync def agent(message, trace):\n    os._exit(7)\n",
        "exited with status 7",
    ),
    "import_error": ("import no_such_module_here\n", "No module named 'no_such_module_here'"),
    "syntax_error": ("def agent(:\n", "SyntaxError"),
}


@pytest.mark.parametrize("kind", sorted(CRASHES))
async def test_a_crashing_worker_gives_an_errored_run(tmp_path: Path, kind: str) -> None:
    code, expected = CRASHES[kind]
    root = write_workspace(tmp_path / "project", agent_code=code)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None and screen.live.crashed
        assert expected in message(screen)
        if kind == "segfault":
            assert "about to crash" in message(screen)  # the tail of its stderr
        # The app stays usable: switch screens and run again.
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen, runs=2))


async def test_watch_mode_reruns_changed_cases_then_everything_on_agent_change(
    workspace: Path,
) -> None:
    app = WorkbenchApp(workspace, watch_runs=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = run_screen(app)
        await wait_for(pilot, lambda: finished(screen))  # the first run, on turning watch on
        cities = workspace / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        rome = next(c for c in eval_set.eval_cases if c.eval_id == "rome")
        rome.conversation[0].user_content.content = "boom in Rome?"
        eval_set.to_file(cities)
        await wait_for(pilot, lambda: finished(screen, runs=2))
        assert screen.request is not None
        assert screen.request.only == {str(cities.resolve()): ["rome"]}
        assert screen.live is not None
        assert screen.live.counts()["carried"] == 4
        assert screen.live.cases["cities::rome"].status.value == "error"  # the agent raises now

        code = (workspace / "weather_bot.py").read_text(encoding="utf-8")
        (workspace / "weather_bot.py").write_text(code + "\n# touched\n", encoding="utf-8")
        await wait_for(pilot, lambda: finished(screen, runs=3))
        assert screen.request is not None and screen.request.only == {}
        assert screen.live.counts()["carried"] == 0
        assert screen.live.total == 5


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("weather bot", "expected MODULE:ATTR"),
        ("no_such_agent_module:agent", "no module 'no_such_agent_module'"),
    ],
)
async def test_a_typed_agent_is_validated_before_running(
    workspace: Path, typed: str, expected: str
) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#agent", Input).value = typed
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: expected in message(screen))
        assert screen.runs_started == 0


async def test_no_agent_anywhere_is_said_for_the_eval_set_that_needs_one(workspace: Path) -> None:
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#agent", Input).value = ""  # the settings' agent cleared
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        assert "no agent for eval set 'cities'" in message(screen)
        assert "evals/cities.evalset.json" in message(screen)  # its file named
        assert screen.check_action("resume", ()) is False
        assert "agent box" in message(screen)


KILLS_ITSELF_AFTER_PARIS = """
import asyncio
import os
import time
from pathlib import Path

from tenxeval_tui.evaluation import Trace

JOURNALS = Path(__file__).parent / "reports" / ".journal"


def paris_journalled() -> bool:
    from tenxeval_tui.evaluation.results.journal import read_journal_runs

    return any(
        r.eval_id == "paris"
        for j in JOURNALS.glob("*.jsonl")
        for report in read_journal_runs(j)
        for r in report.results
    )


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    if city != "Paris":
        deadline = time.monotonic() + 60
        while not paris_journalled() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)  # Paris finishes (and is journalled) first
        os._exit(139)
    return f"It is sunny in {city}."
"""


async def test_a_worker_killed_by_its_agent_leaves_a_partial_report(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project", agent_code=KILLS_ITSELF_AFTER_PARIS)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None and screen.live.crashed
        assert "the cases that finished are in a partial report" in message(screen)
        (report,) = (root / "reports").glob("*.json")
        data = json.loads(report.read_text(encoding="utf-8"))
        assert [r["eval_id"] for r in data["results"]] == ["paris"]
        assert data["metadata"]["partial"] is True


async def test_a_judge_preset_without_a_judge_says_what_to_set(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "TENXEVAL_JUDGE_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#preset", Select).value = "safety_check"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        assert "CriterionConfigError: hallucinations_v1: no judge model" in message(screen)
        assert "Traceback" not in message(screen)


async def test_watch_mode_keeps_the_filter_drops_removed_cases_and_watches_named_agents(
    tmp_path: Path,
) -> None:
    # No agent in the settings: both eval sets name weather_bot in their metadata.
    root = write_workspace(tmp_path / "project", agent="")
    for path in (root / "evals").glob("*.evalset.json"):
        eval_set = EvalSet.from_file(path)
        eval_set.metadata["agent"] = "weather_bot:agent"
        eval_set.to_file(path)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#case-filter", Input).value = "#smoke"  # paris only
        await pilot.press("w")  # watch mode: a first run, with the filter
        await wait_for(pilot, lambda: finished(screen))
        assert screen.live is not None and list(screen.live.cases) == ["cities::paris"]

        cities = root / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        eval_set.eval_cases = [c for c in eval_set.eval_cases if c.eval_id != "oslo"]
        eval_set.eval_cases[1].name = "Rome, edited"  # untagged: the filter keeps it out
        eval_set.to_file(cities)
        # The batch is counted and handled in one step (a rerun would be launched in it).
        await wait_for(pilot, lambda: screen.watcher.batches >= 1)
        assert screen.runs_started == 1  # nothing the filter selects changed

        code = (root / "weather_bot.py").read_text(encoding="utf-8")
        (root / "weather_bot.py").write_text(code + "\n# touched\n", encoding="utf-8")
        await wait_for(pilot, lambda: finished(screen, runs=2))  # the named agent's code
        assert list(screen.live.cases) == ["cities::paris"]


async def test_watch_mode_takes_a_removed_case_out_of_the_view(workspace: Path) -> None:
    app = WorkbenchApp(workspace, watch_runs=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = run_screen(app)
        await wait_for(pilot, lambda: finished(screen))
        cities = workspace / "evals" / "cities.evalset.json"
        eval_set = EvalSet.from_file(cities)
        eval_set.eval_cases = [c for c in eval_set.eval_cases if c.eval_id != "oslo"]
        eval_set.to_file(cities)
        await wait_for(pilot, lambda: "cities::oslo" not in screen.live.cases)  # type: ignore[union-attr]
        assert screen.runs_started == 1  # nothing to rerun
        assert "cities::oslo" not in screen.last_results
        assert screen.live is not None and screen.live.total == 4


async def test_a_case_id_filter_runs_that_case_from_whichever_eval_set_holds_it(
    workspace: Path,
) -> None:
    """An id in the filter, with "all eval sets": the sets without that case are left out,
    as for a tag; they once stopped the run ("none of the 1 case(s) chosen for this run is
    in the file: was it changed since they were chosen?"), and an id no set has said so too
    instead of that nothing matches the filter."""
    reports = workspace / "reports"
    async with WorkbenchApp(workspace).run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#case-filter", Input).value = "paris"  # in cities, not in more
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        assert screen.live is not None and sorted(screen.live.cases) == ["cities::paris"]
        written = sorted(p.name for p in reports.glob("*.json"))
        assert len(written) == 1 and written[0].startswith("cities"), (written, message(screen))

        screen.query_one("#case-filter", Input).value = "paris lima"  # one in each set
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen, runs=2))
        assert sorted(screen.live.cases) == ["cities::paris", "more::lima"], message(screen)

        screen.query_one("#case-filter", Input).value = "nowhere"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen, runs=3))
        assert "Nothing ran: no case of the eval sets run matches the case filter" in message(
            screen
        )


async def test_a_filtered_run_writes_reports_only_of_the_eval_sets_it_ran(
    workspace: Path,
) -> None:
    """#29: "all eval sets" with the filter #smoke ran Paris alone and wrote a report of 0
    cases for the other set; a filter matching nothing wrote empty reports and said nothing."""
    reports = workspace / "reports"
    async with WorkbenchApp(workspace).run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#case-filter", Input).value = "#smoke"  # paris only, in cities
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        written = sorted(p.name for p in reports.glob("*.json"))
        assert len(written) == 1 and written[0].startswith("cities"), written
        assert json.loads((reports / written[0]).read_text())["summary"]["total_cases"] == 1

        screen.query_one("#case-filter", Input).value = "#nothing-has-this"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen, runs=2))
        assert sorted(p.name for p in reports.glob("*.json")) == written  # nothing new
        assert screen.live is not None and screen.live.report_files == []
        assert "Nothing ran: no case of the eval sets run matches the case filter" in message(
            screen
        )


async def test_all_eval_sets_run_those_with_an_agent_and_name_the_one_without(
    workspace: Path,
) -> None:
    """No agent typed or set: the set naming its own runs; the other is not run, said
    with its file and what it lacks, and "run the rest" is not offered for it."""
    cities = workspace / "evals" / "cities.evalset.json"
    data = json.loads(cities.read_text(encoding="utf-8"))
    data["metadata"] = {**data.get("metadata", {}), "agent": "weather_bot:agent"}
    cities.write_text(json.dumps(data), encoding="utf-8")
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#agent", Input).value = ""  # the settings' agent cleared
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: finished(screen))
        assert screen.live is not None
        counts = screen.live.counts()
        assert (screen.live.total, counts["cancelled"]) == (3, 0), counts
        said = message(screen)
        assert "Run finished" in said
        assert "Not run: evals/more.evalset.json: no agent for eval set 'more'" in said
        assert screen.check_action("resume", ()) is False


async def test_a_run_whose_agent_cannot_load_does_not_offer_the_rest(workspace: Path) -> None:
    """The worker stopped before any case ran (its agent did not import): "run the rest"
    would stop the same way, so it is not offered."""
    (workspace / "weather_bot.py").write_text("import no_such_module_here\n", encoding="utf-8")
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert "Run errored" in message(screen)
        assert screen.check_action("resume", ()) is False
