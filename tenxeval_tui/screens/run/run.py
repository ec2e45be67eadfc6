"""The run screen: pick what to run, watch every case and event live, act on the outcome.

The screen never evaluates anything: it starts :mod:`tenxeval_tui.runs.worker` in a child
process (:class:`WorkerProcess`), which feeds a :class:`LiveRun`; a timer repaints
from it several times a second (only the rows that changed, only the new events).
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Checkbox, Header, Static

from tenxeval_tui.browsing.case_flips import FlipHistory
from tenxeval_tui.browsing.history.landing import index_landed
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.repeats import MAX_REPEATS
from tenxeval_tui.evaluation.simulators.scenario_sets import load_run_file
from tenxeval_tui.evaluation.tools.settings import ToolSettings
from tenxeval_tui.runs.live_run import CaseStatus, LiveRun, case_key
from tenxeval_tui.runs.passes import rerun_only
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.problems import RunProblem
from tenxeval_tui.runs.rest_of_run import (
    RestOfRun,
    StoppedRun,
    reports_hold,
    rest_of,
    write_complete,
)
from tenxeval_tui.runs.resume import plan_resume_command
from tenxeval_tui.runs.worker_process import WorkerProcess
from tenxeval_tui.screens.accept.one_case import ACCEPT_KEY
from tenxeval_tui.screens.accept.report_cases import ACCEPT_MANY_KEY
from tenxeval_tui.screens.accept.run_cases import (
    accept_many_in_run,
    accept_selected,
    can_accept,
    result_in_reports,
)
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.flip_marks import FlipMarks
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.mode_screen import ModeScreen
from tenxeval_tui.screens.common.typing_keys import hidden_while_typing
from tenxeval_tui.screens.reports.html_report import open_in_browser
from tenxeval_tui.screens.run.run_stop import (
    END_CHOICES,
    STOP_CHOICES,
    ack_message,
    end_question,
    end_tool_call,
    running_case,
    stop_case,
    stop_question,
    unfinished_cases,
)
from tenxeval_tui.screens.run.run_transcript import TRANSCRIPT_KEY, TranscriptSwitch
from tenxeval_tui.screens.run.run_watch import WatchController
from tenxeval_tui.screens.run.variant_run import VariantRunScreen
from tenxeval_tui.settings.layers import SettingsError, report_folder, resolve_settings
from tenxeval_tui.settings.workspace import Workspace
from tenxeval_tui.settings.workspace_watch import follow_workspace_files
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.common.transcript_view import TranscriptPane
from tenxeval_tui.widgets.run.case_now import CaseNow
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tenxeval_tui.widgets.run.run_options import ALL_SETS, RunChoice, RunOptions, agent_problem
from tenxeval_tui.widgets.run.run_progress import RunProgress

REPAINT_SECONDS = 1 / 15
TICK_SECONDS = 1.0
"""How often running cases' clocks and steps are shown anew."""


class RunScreen(ModeScreen):
    """Run eval sets in a worker process and follow them live."""

    HELP_WHERE = "run view"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the screen before"),
        Binding("ctrl+k", "cancel_run", "Cancel run", priority=True),
        Binding("x", "stop_case", "Stop case", tooltip="Stop the selected running case"),
        Binding(
            "t",
            "end_tool_call",
            "End tool call",
            tooltip="End the selected case's tool call in flight (the agent sees a timeout)",
        ),
        Binding(
            "u",
            "resume",
            "Run the rest",
            tooltip="Run what the stopped run did not finish; the finished cases are kept",
        ),
        Binding("f", "rerun_failed", "Rerun failed", tooltip="Rerun the failed and errored cases"),
        Binding("s", "rerun_selected", "Run again", tooltip="Run the selected case again"),
        ACCEPT_KEY,
        ACCEPT_MANY_KEY,
        Binding("o", "open_html", "Open HTML", tooltip="Open the HTML report in the browser"),
        Binding(
            "v", "browse_report", "View report", tooltip="This run's report in the report browser"
        ),
        Binding("w", "toggle_watch", "Watch", tooltip="Rerun on eval set or agent changes"),
        Binding("ctrl+l", "focus_cases", "Cases"),
        Binding("ctrl+g", "focus_events", "Events"),
        TRANSCRIPT_KEY,
        Binding(
            "m",
            "variants",
            "Variants",
            tooltip="Run several variants of the agent side by side, then their matrix",
        ),
    ]

    @classmethod
    def help_sections(cls) -> list[tuple[str, list[Any]]]:
        """Bindings of the run screen, for the help screen."""
        return [
            (cls.HELP_WHERE, list(cls.BINDINGS)),
            ("run view's case table", RunCaseTable.BINDINGS),
        ]

    live: reactive[LiveRun | None] = reactive(None, init=False)
    """The run on screen: a new one empties the view, which :meth:`repaint` fills from it."""
    selected: reactive[str | None] = reactive(None, init=False)
    """The key of the case whose title and events show (``None``: the next one listed)."""
    runs_finished: reactive[int] = reactive(0, init=False)
    """Runs whose outcome is on screen (the worker exited and reports were written)."""

    def __init__(
        self,
        *,
        timings: bool = True,
        watch: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(id="run")
        self.clocks: list[Timer] = []
        """The repaint and the tick, once mounted: running only while a run is in progress
        and the view is shown (a view with nothing running, or kept behind another
        screen, woke fifteen times a second for nothing)."""
        self._run_in_progress = False
        self._suspended = False
        self.timings = timings
        self.clock = clock
        """The time of runs (a test drives its own to see clocks tick)."""
        self.process: WorkerProcess | None = None
        self.request: RunPlan | None = None
        self.stopped_run: StoppedRun | None = None
        """The run whose rest ``u`` runs (the last one started with ctrl+r or a rerun)."""
        self.last_results: dict[str, EvalCaseResult] = {}
        self.case_reports: dict[str, list[Path]] = {}
        """Case key -> the JSON reports of the run that ran it (its full result is there)."""
        self.set_paths: dict[str, Path] = {}
        self.set_names: dict[str, str] = {}
        self.runs_started = 0
        self._reselect: str | None = None
        """The case to select again once a new run lists it."""
        self._watch_on_mount = watch
        self._bound_to: tuple[str | None, CaseStatus | None] = (None, None)
        """The selected case and its status when the keys shown were last checked."""
        self._workspace: Workspace | None = None
        self.watcher = WatchController(self)
        self.transcript = TranscriptSwitch(self)
        self.flip_marks = FlipMarks(self, self._show_flips)
        """Which cases of the eval sets run flipped over their last runs (marked rows)."""

    # --- layout ----------------------------------------------------------------------

    @property
    def workspace(self) -> Workspace:
        """The app's workspace (the current folder when the app has none)."""
        if self._workspace is None:
            self._workspace = host_of(self.app).workspace
        return self._workspace

    @property
    def search_path(self) -> Path:
        """Where the agent's module is looked up: the folder of the settings, else the
        current folder (as ``tenxeval-tui run`` does)."""
        ws = self.workspace
        return (ws.settings_file.parent if ws.settings_file else Path.cwd()).resolve()

    def compose(self) -> ComposeResult:
        ws = self.workspace
        sets = [(ws.display_path(p), p) for p in ws.run_files()]
        yield Header(icon="≡")
        agent, concurrency, workers, preset = self._initial_options()
        yield RunOptions(
            sets,
            agent=agent,
            concurrency=concurrency,
            workers=_workers(workers),
            preset=preset,
            tools=self._initial_tools(),
            id="run-options",
        )
        yield RunProgress(timings=self.timings, id="run-progress")
        with Horizontal(id="run-main"):
            yield RunCaseTable(timings=self.timings, id="run-cases")
            with Vertical(id="run-detail"):
                yield Static("", id="run-case-title")
                yield CaseNow(id="run-case-now")
                with VerticalScroll(id="run-message-box"):
                    yield Static("", id="run-message")
                yield EventStream(id="run-events")
                yield TranscriptPane(id="run-transcript")
        yield SteadyFooter()

    def _initial_options(self) -> tuple[str, int, int | str | None, str | None]:
        """The options bar's agent, jobs, workers and preset: the agent of the last run in
        this workspace and the jobs and preset of the last run anywhere (the user's
        settings), else ``$TENXEVAL_AGENT`` / ``$TENXEVAL_CONCURRENCY`` /
        ``$TENXEVAL_WORKERS``, the project's, the user's ``run.*``, the defaults."""
        ws = self.workspace
        user = host_of(self.app).preferences.settings
        names = ("agent", "concurrency", "workers")
        try:
            layered = resolve_settings({}, os.environ, ws, user, names=names)
            agent, concurrency, workers = (layered[name].value for name in names)
        except SettingsError:  # a bad variable: `run` names it; here the project's
            agent, concurrency, workers = ws.settings.agent, None, ws.settings.workers
        last = user.last_run
        if last.agent is not None and last.workspace == str(ws.root.resolve()):
            agent = last.agent
        jobs = last.concurrency or concurrency or ws.settings.concurrency
        return agent or "", jobs, workers, last.preset

    def _initial_tools(self) -> str:
        """The options bar's tools mode: ``$TENXEVAL_TOOLS``, else the project's
        ``[tool.tenxeval] tools``, else live (as ``run --tools`` resolves it)."""
        user = host_of(self.app).preferences.settings
        try:
            layered = resolve_settings({}, os.environ, self.workspace, user, names=("tools",))
        except SettingsError:
            return self.workspace.settings.tools or "live"
        return str(layered["tools"].value or "live")

    def on_mount(self) -> None:
        self.title = "tenxeval · run"
        self.query_one(RunProgress).show(None)
        self.query_one("#run-cases").border_title = "cases"
        self.query_one("#run-events").border_title = "events"
        self.query_one("#run-transcript").border_title = "transcript"
        self._say("ctrl+r runs the selected eval sets; w watches them for changes.")
        self.clocks = [  # started when a run is (see _follow_clocks)
            self.set_interval(REPAINT_SECONDS, self.repaint, pause=True),
            self.set_interval(TICK_SECONDS, self.tick, pause=True),
        ]
        self._follow_clocks()
        self.query_one(RunCaseTable).focus()
        if self._watch_on_mount or host_of(self.app).watch_runs:
            self.query_one(RunOptions).set_watch(True)
        self.flip_marks.start_following()
        if host_of(self.app).watch_files:
            self._follow_workspace()

    def on_screen_suspend(self) -> None:
        if self.app.screen.is_modal:
            return  # a dialog over the view: the view shows through, kept up to date
        self._suspended = True
        self._follow_clocks()

    def on_screen_resume(self) -> None:
        self._suspended = False
        if not self.clocks:
            return  # shown before it is mounted: on_mount starts them
        self.repaint()  # what came meanwhile, at once
        self._follow_clocks()

    def _follow_clocks(self) -> None:
        """Run the repaint and the tick while a run is in progress and the view is shown;
        pause them otherwise (an idle view wakes for nothing)."""
        on = self._run_in_progress and not self._suspended
        for clock in self.clocks:
            if on:
                clock.resume()
            else:
                clock.pause()

    def _say(self, message: str, style: str = "") -> None:
        box = self.query_one("#run-message", Static)
        box.update(Text(inert(message, multiline=True), style=style))
        self.query_one("#run-message-box").display = bool(message)

    @work(exclusive=True, group="workspace-watch")
    async def _follow_workspace(self) -> None:
        """List an eval set or scenario file made or removed since without a restart."""
        await follow_workspace_files(self.workspace, self._workspace_changed)

    def _workspace_changed(self) -> None:
        ws = self.workspace
        self.query_one(RunOptions).set_eval_sets([(ws.display_path(p), p) for p in ws.run_files()])

    # --- choosing and starting a run -------------------------------------------------

    def options_choice(self) -> RunChoice:
        """What the options bar selects now."""
        return self.query_one(RunOptions).choice()

    @property
    def config_file(self) -> Path | None:
        """The eval config file of the workspace settings, if any."""
        ws = self.workspace
        return ws.resolve(ws.settings.config).resolve() if ws.settings.config else None

    def say_problem(self, message: str) -> None:
        """Show why something could not be done."""
        self._say(message, "bold red")

    def action_start(self) -> None:
        """Run what the options select."""
        choice = self.options_choice()
        paths = self.chosen_paths(choice)
        if choice.scope != ALL_SETS:
            _, skipped = ready_run_files(paths, self.config_file, choice)
            for path, problem in skipped:  # said in the workbench's terms, before any start
                self.say_problem(f"{self.workspace.display_path(path)} cannot run: {problem}")
                return
        if self.launch(paths, eval_ids=choice.eval_ids, tags=choice.tags):
            # keys typed next act on the run (e, s, x...), not into the box run from
            self.query_one(RunCaseTable).focus()

    def chosen_paths(self, choice: RunChoice) -> list[Path]:
        """The eval set (and scenario) files the scope option selects: "all" leaves out the
        scenario files whose simulated user is not set up, saying why in a notification."""
        if choice.scope != ALL_SETS:
            return [Path(choice.scope)]
        files, skipped = ready_run_files(self.workspace.run_files(), self.config_file, choice)
        for path, problem in skipped:
            self.notify(
                inert(f"Skipped {self.workspace.display_path(path)}: {problem}"),
                title="scenario file not run",
                severity="warning",
                markup=False,
            )
        return files

    def launch(
        self,
        paths: list[Path],
        *,
        only: dict[str, list[str]] | None = None,
        eval_ids: Sequence[str] = (),
        tags: list[str] | None = None,
        carry: list[EvalCaseResult] | None = None,
        chosen_by: str | None = None,
    ) -> bool:
        """Start a run of ``paths`` (restricted by ``only``, ``eval_ids`` and ``tags``);
        ``False`` if it cannot.

        ``only`` names the cases of each file (a rerun: each is there); ``eval_ids`` and
        ``tags`` are the filter's, over every file (a file holding none of them is left
        out, not an error). ``chosen_by`` says why a run is of some cases only (a rerun:
        ``rerun_failed``, ``run_again``, ``watch``), for its reports' ``metadata.selection``.

        ``carry`` are earlier results shown as carried over. A run in progress is
        stopped first (its worker is killed).
        """
        choice = self.options_choice()
        agent = choice.agent.strip()
        # No agent typed: eval sets naming their own still run (the worker says which cannot).
        problem = agent_problem(agent, self.search_path) if agent else None
        if not paths:
            problem = f"No eval sets to run in {self.workspace.root}."
        if choice.repeats is not None and not 1 <= choice.repeats <= MAX_REPEATS:
            problem = f"Repeats: {choice.repeats} is not a whole number from 1 to {MAX_REPEATS:,}."
        if problem:
            self._say(problem, "bold red")
            return False
        self.request = self.plan_for(paths, choice, only=only, eval_ids=eval_ids, tags=tags)
        if chosen_by is not None:
            self.request = self.request.model_copy(update={"chosen_by": chosen_by})
        self.stopped_run = StoppedRun.of(self.request)
        self._start(self.request, list(carry or []))
        self._remember_options(choice)
        return True

    def plan_for(
        self,
        paths: list[Path],
        choice: RunChoice,
        *,
        only: dict[str, list[str]] | None = None,
        eval_ids: Sequence[str] = (),
        tags: list[str] | None = None,
    ) -> RunPlan:
        """The plan of a run of ``paths`` with the options ``choice`` (see :meth:`launch`)."""
        ws = self.workspace
        agent = choice.agent.strip()
        output_dir = self.output_dir
        return RunPlan(
            agent=agent,
            # typed over the settings' agent: it wins over the eval sets' own, as --agent does
            agent_explicit=bool(agent) and agent != (ws.settings.agent or ""),
            eval_sets=[p.resolve() for p in paths],
            only={str(Path(k).resolve()): v for k, v in (only or {}).items()},
            selection=CaseSelection(  # any #tag
                eval_ids=tuple(eval_ids) or None, tags=tuple(tags or ()), every_tag=False
            ),
            concurrency=choice.concurrency,
            repeats=choice.repeats,
            workers=choice.workers,
            preset=choice.preset,
            tools=ToolSettings(mode=choice.tools),  # type: ignore[arg-type]  # one of TOOL_MODES
            config_file=self.config_file,
            output_dir=output_dir,
            journal=_new_journal(output_dir),
            search_path=self.search_path,
            **self.watcher.report_marks(),
        )

    @property
    def output_dir(self) -> Path:
        """Where the run view's reports go."""
        return report_folder(self.workspace, host_of(self.app).preferences.settings).resolve()

    def action_variants(self) -> None:
        """The variants screen: choose variants, run them side by side, browse the matrix."""
        self.app.push_screen(VariantRunScreen(self))

    def _start(
        self, request: RunPlan, carry: list[EvalCaseResult], rest: RestOfRun | None = None
    ) -> None:
        self.request = request
        self.runs_started += 1
        self._run_worker(request, carry, rest)

    def _remember_options(self, choice: RunChoice) -> None:
        """Keep the options of this run in the user's settings for the next session."""
        values = {
            "agent": choice.agent,
            "workspace": str(self.workspace.root.resolve()),
            "concurrency": choice.concurrency,
            "preset": choice.preset,
        }
        problem = host_of(self.app).preferences.save_last_run(values)
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)

    @work(exclusive=True, group="run")
    async def _run_worker(
        self, request: RunPlan, carry: list[EvalCaseResult], rest: RestOfRun | None
    ) -> None:
        await self._stop_process()
        earlier = list(self.live.cases.values()) if self.live is not None else []
        run = LiveRun(
            clock=self.clock,
            slow_after=self.workspace.settings.slow_case_seconds,
            step_durations=self.timings,
        )
        run.eval_set_names.update(self.set_names)
        run.expected_seconds = {
            key: result.duration_seconds for key, result in self.last_results.items()
        }
        run.carry(carry, order=earlier, rerun=self._rerun_keys(request))
        process = WorkerProcess(request, run, cwd=self.search_path)
        self.process = process
        try:
            # The worker first: its start would otherwise wait for the repaint of the
            # screen's reset below (a tenth of a second on a big screen), and the agent's
            # imports are the longest part of a rerun.
            await process.start()
            self._show_new_run(run)
            self._run_in_progress = True
            self._follow_clocks()
            self.refresh_bindings()
            await self._learn_eval_sets(request, run)
            await process.pump()
        except asyncio.CancelledError:
            process.kill()
            if process.process is not None:
                await process.process.wait()
            run.finish(None, cancelled=True)
            raise
        except OSError as exc:
            self._show_new_run(run)
            run.worker_error = f"cannot start the worker: {exc}"
            run.finish(None)
        stopped = process.cancelled or run.crashed  # cancelled, or the agent killed it
        if rest is not None:  # the stopped run's complete reports, as `run --resume` writes
            await asyncio.to_thread(_write_complete_reports, run, rest, finished=not stopped)
        elif stopped and not run.report_files and request.journal is not None:
            await asyncio.to_thread(
                _write_partial_reports, run, request, cancelled=process.cancelled
            )
        # the reports go into their folder's history index as they land (in a thread)
        self.run_worker(partial(index_landed, list(run.report_files)), thread=True)
        for result in run.results():
            self.last_results[f"{result.eval_set_id}::{result.eval_id}"] = result
        reports = [Path(f) for f in run.report_files if f.endswith(".json")]
        for key, state in run.cases.items():
            if state.result is not None and state.status != CaseStatus.CARRIED:
                self.case_reports[key] = reports
        if not self.query(RunCaseTable):  # the app closed while the run ended: no screen left
            self.runs_finished += 1
            return
        self.repaint()
        if self.live is run:  # the run shown has ended: nothing moves until the next one
            self._run_in_progress = False
            self._follow_clocks()
        # The figures as the run ended: the last repaint may have come just before its end.
        self.query_one(RunProgress).show(run)
        self._show_outcome(run, rest)
        self.runs_finished += 1
        if self.live is run:  # not replaced by a newer run meanwhile
            self.call_later(self.watcher.run_ended)

    @property
    def cases_in_run(self) -> list[tuple[str, str]]:
        """``(eval_set_id, eval_id)`` of each case of the run in progress (for watch mode)."""
        run = self.live
        if run is None or not self.running:
            return []
        return [(state.eval_set_id, state.eval_id) for state in run.cases.values()]

    def _show_new_run(self, run: LiveRun) -> None:
        """Follow ``run`` from now on: an empty case table and events pane, no message."""
        self._reselect = self.selected  # the case looked at stays selected
        self.selected = None
        self.live = run  # watch_live empties the case table and the events pane
        self._say("")

    async def _learn_eval_sets(self, request: RunPlan, run: LiveRun) -> None:
        """Which file each eval set id comes from (for reruns), read while the worker starts."""
        try:
            found = await asyncio.to_thread(_eval_sets_of, request.eval_sets)
        except (EvalFileError, OSError):
            return  # the worker says what is wrong with the file
        self.set_paths.update({set_id: path for set_id, (path, _) in found.items()})
        self.set_names.update({set_id: name for set_id, (_, name) in found.items()})
        for set_id, (_, name) in found.items():
            run.eval_set_names.setdefault(set_id, name)
        self.flip_marks.follow(self.set_paths)

    async def _stop_process(self) -> None:
        process = self.process
        if process is not None and process.running:
            process.kill()
            if process.process is not None:
                await process.process.wait()

    def _show_outcome(self, run: LiveRun, rest: RestOfRun | None = None) -> None:
        """How the run ended, where its reports are, what to do next; ``rest``: it ran the
        rest of a stopped run, and its reports hold what that run finished too."""
        if run.crashed:
            what = run.worker_error or f"the worker exited with status {run.exit_code}"
            if run.report_files:
                what += "; the cases that finished are in a partial report (v: view it)"
            tail = "\n".join(run.stderr_tail)
            self._say(f"Run errored: {what}\n{tail}".rstrip(), "red")
            return
        if run.planned and not run.cases:
            self._say(
                "Nothing ran: no case of the eval sets run matches the case filter. "
                "No report was written.",
                "yellow",
            )
            return
        ws = self.workspace
        where = ws.display_path(Path(run.report_files[0]).parent) if run.report_files else "nowhere"
        state = "Partial run (cancelled)" if run.partial else "Run finished"
        keys = "  o: HTML report · v: view the report" if run.html_reports else ""
        if unfinished_cases(run) and self.request is not None:
            command = plan_resume_command(self.request, self.search_path)
            keys += "\nu runs the rest here" + (f"; or: {command}" if command else "")
        covers = reports_hold(run, rest)
        skipped = "".join(
            f"\nNot run: {ws.display_path(Path(path))}: {problem}" for path, problem in run.not_run
        )
        self._say(
            f"{state}: {len(run.report_files)} report files in {where}.{covers}{keys}{skipped}"
        )

    def _rerun_keys(self, request: RunPlan) -> set[str]:
        """The keys of the cases ``request`` reruns by id (its ``only`` lists)."""
        set_of = {str(path.resolve()): set_id for set_id, path in self.set_paths.items()}
        return {
            case_key(set_of[path], eval_id)
            for path, ids in request.only.items()
            if path in set_of
            for eval_id in ids
        }

    @property
    def running(self) -> bool:
        """Whether a run is in progress (its worker process is alive)."""
        return self.process is not None and self.process.running

    def forget_results(self, keys: Iterable[str]) -> None:
        """Forget the results of cases that no longer exist (they are not carried over)."""
        for key in keys:
            self.last_results.pop(key, None)

    def drop_cases(self, keys: set[str]) -> None:
        """Take cases that no longer exist (removed from their file) out of the view."""
        table = self.query_one(RunCaseTable)
        for key in keys:
            self.last_results.pop(key, None)
            table.forget(key)
            if self.live is not None:
                self.live.cases.pop(key, None)
                self.live.dirty.discard(key)
        if self.selected in keys:
            self.selected = None
        if self.live is not None:
            self.query_one(RunProgress).show(self.live)

    # --- reacting to the state -------------------------------------------------------

    def watch_live(self, run: LiveRun | None) -> None:
        self.query_one(RunCaseTable).reset()
        self.query_one(EventStream).follow(None)
        self.transcript.follow(None)
        self.query_one(CaseNow).show(None, 0.0)
        if run is None:
            self.query_one(RunProgress).show(None)
        else:  # its cases, figures and all: the figures counted once (10,000 cases: 36 ms)
            self.repaint()

    def watch_selected(self, key: str | None) -> None:
        run = self.live
        if run is None or key is None or key not in run.cases:
            return  # what shows stays until another case is followed
        state = run.cases[key]
        title = Text.assemble(
            (inert(state.name or state.eval_id), "bold"), f"  {inert(state.eval_set_id)}"
        )
        self.query_one("#run-case-title", Static).update(title)
        placeholder = (
            "(carried over from the last run)" if state.status == CaseStatus.CARRIED else ""
        )
        self._show_now(run, run.clock())
        self._bindings_follow(run)
        self.query_one(EventStream).follow(state.events, placeholder)
        self.transcript.follow(state)

    def watch_runs_finished(self) -> None:
        self.refresh_bindings()  # the keys that act on a finished run
        self.flip_marks.refresh()  # with the reports this run wrote

    def _show_flips(self, histories: dict[str, FlipHistory]) -> None:
        self.query_one(RunCaseTable).set_flipped(
            frozenset(case_key(s, i) for s, history in histories.items() for i in history.cases)
        )

    # --- repainting ------------------------------------------------------------------

    def repaint(self) -> None:
        """Show what changed since the last repaint (rows, figures, new events)."""
        run = self.live
        if run is None:
            return
        table = self.query_one(RunCaseTable)
        table.slow_after = run.slow_after
        table.now = now = run.clock()
        dirty = run.take_dirty()
        names = run.eval_set_names
        table.show_all(
            (state, names.get(state.eval_set_id, "")) for state in (run.cases[key] for key in dirty)
        )
        if dirty or not run.done:
            self.query_one(RunProgress).show(run, dirty)
        if self._reselect is not None and table.move_to(self._reselect):
            self._reselect = None
        if self.selected is None and table.row_count:
            self._follow(table.selected_key)
        if self.selected in dirty or (run.done and dirty):
            self._show_now(run, now)
            self._bindings_follow(run)
        if run.acks:
            self._tell_acks(run)
        self.query_one(EventStream).flush()
        self.transcript.flush()

    def tick(self) -> None:
        """Move running cases' clocks on: their rows, the followed case's step, the figures."""
        run = self.live
        if run is None or run.done:
            return
        now = run.clock()
        self.query_one(RunCaseTable).tick(now, run.running_keys())
        self._show_now(run, now)
        self.query_one(RunProgress).show(run, ())

    def _bindings_follow(self, run: LiveRun) -> None:
        """Show the keys that apply anew when the selected case starts or stops running
        (stop case, end tool call), not at each of its events."""
        state = run.cases.get(self.selected) if self.selected is not None else None
        shown = (self.selected, state.status if state is not None else None)
        if shown != self._bound_to:
            self._bound_to = shown
            self.refresh_bindings()

    def _show_now(self, run: LiveRun, now: float) -> None:
        state = run.cases.get(self.selected) if self.selected is not None else None
        self.query_one(CaseNow).show(state, now, timings=self.timings)

    def _follow(self, key: str | None) -> None:
        run = self.live
        if run is not None and key is not None and key in run.cases:
            self.selected = key

    @on(RunCaseTable.Highlighted, "#run-cases")
    def _row_highlighted(self, event: RunCaseTable.Highlighted) -> None:
        key = event.item  # None: the table is empty
        if key is not None and key != self.selected:
            self._follow(str(key))

    @on(RunCaseTable.Selected, "#run-cases")
    def _row_selected(self, event: RunCaseTable.Selected) -> None:
        self._open_case(str(event.item))

    @work(exclusive=True, group="case-detail")
    async def _open_case(self, key: str) -> None:
        """The case's detail on a screen of its own (its full result from its report)."""
        run = self.live
        state = run.cases.get(key) if run is not None else None
        if state is None or state.result is None:
            self.notify("This case has no result yet: its events are in the events pane.")
            return
        lean = state.result
        found = await asyncio.to_thread(result_in_reports, self.case_reports.get(key, []), lean)
        result, title, ended = found or (
            lean,
            run.eval_set_names.get(state.eval_set_id, "") if run else "",
            None,
        )
        from tenxeval_tui.screens.reports.case_detail import CaseScreen

        await self.app.push_screen(
            CaseScreen(
                result,
                report_title=title or state.eval_set_id,
                eval_set_id=state.eval_set_id,
                run_timestamp=ended,
            )
        )

    # --- actions ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_while_typing(self, action):
            return False  # the options bar's box has the focus: the key types there
        run = self.live
        if action == "cancel_run":
            return self.running
        if action in ("stop_case", "end_tool_call"):
            return self.running and running_case(run, self.selected) is not None
        if action == "resume":
            return bool(run and run.done and unfinished_cases(run))
        if action == "rerun_failed":
            return bool(run and run.done and self._failed(run))
        if action == "rerun_selected":
            return bool(run and run.done and self.selected)
        if action == "accept_actual":
            return can_accept(run, self.selected, self.case_reports)
        if action == "accept_many":
            return bool(run and run.done and not self.running)
        if action in ("open_html", "browse_report"):
            return bool(run and run.done and run.report_files)
        if action == "back":
            return can_go_back(self)
        return True

    @staticmethod
    def _failed(run: LiveRun) -> list[EvalCaseResult]:
        return [r for r in run.results() if not r.passed]

    def action_cancel_run(self) -> None:
        """Ask, then stop the worker: finished cases are kept in a partial report."""
        self._confirm_cancel()

    @work(exclusive=True, group="cancel")
    async def _confirm_cancel(self) -> None:
        answer = await self.app.push_screen_wait(
            ChoiceScreen(
                "Cancel the run? Finished cases are kept in a partial report.",
                {"yes": "Yes, cancel", "no": "No, keep running"},
                title="Cancel run",
            )
        )
        if answer == "yes":
            await self.cancel_run()

    async def cancel_run(self) -> None:
        """Stop the worker (cleanly, then by force); the run screen shows a partial run."""
        if self.process is not None:
            await self.process.cancel()

    def action_stop_case(self) -> None:
        """Ask, then stop the selected running case (cancelled, or scored as it is)."""
        self._confirm_stop()

    @work(exclusive=True, group="stop-case")
    async def _confirm_stop(self) -> None:
        state = running_case(self.live, self.selected)
        if state is None:
            return
        answer = await self.app.push_screen_wait(
            ChoiceScreen(stop_question(state), STOP_CHOICES, title="Stop case")
        )
        process = self.process
        if answer not in ("cancel_case", "score") or process is None:
            return
        if not await stop_case(process, state, score=answer == "score"):
            self.notify("The run has ended.", severity="warning")

    def action_end_tool_call(self) -> None:
        """Ask, then end the selected case's tool call in flight: the agent sees it time
        out (it cannot be undone)."""
        self._confirm_end_call()

    @work(exclusive=True, group="stop-case")
    async def _confirm_end_call(self) -> None:
        state = running_case(self.live, self.selected)
        if state is None:
            return
        answer = await self.app.push_screen_wait(
            ChoiceScreen(end_question(state), END_CHOICES, title="End tool call")
        )
        if answer == "end" and self.process is not None:
            await end_tool_call(self.process, state)

    def _tell_acks(self, run: LiveRun) -> None:
        while run.acks:
            message, severity = ack_message(run, run.acks.popleft())
            if message:
                self.notify(message, severity=severity, markup=False)  # type: ignore[arg-type]

    @work(exclusive=True, group="resume")
    async def action_resume(self) -> None:
        """Run what the stopped run did not finish, as ``run --resume`` does: its finished
        cases are carried over and the reports written after hold every case."""
        run, stopped = self.live, self.stopped_run
        if run is None or stopped is None or stopped.plan.output_dir is None:
            return
        journal = _new_journal(stopped.plan.output_dir)
        try:
            rest = await asyncio.to_thread(rest_of, stopped, journal)
        except (RunProblem, EvalFileError, OSError) as exc:
            self.say_problem(f"Cannot run the rest: {exc}")
            return
        if not rest.point.todo:
            self._say("Nothing left to run.", "yellow")
            return
        self.stopped_run = rest.after
        self._start(rest.plan, run.results(), rest)

    def action_rerun_failed(self) -> None:
        """Rerun the failed and errored cases; the passed ones are carried over."""
        run = self.live
        if run is None:
            return
        failed = self._failed(run)
        keep = [r for r in run.results() if r.passed]
        self._rerun(failed, keep, "rerun_failed")

    def action_rerun_selected(self) -> None:
        """Rerun the case under the cursor; the others are carried over."""
        run = self.live
        if run is None or self.selected is None:
            return
        state = run.cases[self.selected]
        target = [state.result] if state.result else []
        if not target:
            target = [
                EvalCaseResult(
                    eval_id=state.eval_id, passed=False, metadata={"eval_set_id": state.eval_set_id}
                )
            ]
        keep = [r for r in run.results() if f"{r.eval_set_id}::{r.eval_id}" != self.selected]
        self._rerun(target, keep, "run_again")

    @work(exclusive=True, group="accept")
    async def action_accept_actual(self) -> None:
        """Write what the selected finished case did as its expectations (asks first)."""
        await accept_selected(self, self.live, self.selected, self.case_reports)

    @work(exclusive=True, group="accept")
    async def action_accept_many(self) -> None:
        """Accept the actual of the selected cases, else the reply of every case that
        failed on its reply alone (asks first)."""
        marked = [str(key) for key in self.query_one(RunCaseTable).marked_keys]
        await accept_many_in_run(self, self.live, marked, self.case_reports)

    def _rerun(
        self, targets: list[EvalCaseResult], keep: list[EvalCaseResult], chosen_by: str
    ) -> None:
        cases = [(result.eval_set_id, result.eval_id) for result in targets]
        only = rerun_only(cases, self.set_paths)
        if not only:
            self._say("Nothing to rerun.", "yellow")
            return
        only_ids = {str(p): ids for p, ids in only.items()}
        self.launch(list(only), only=only_ids, carry=keep, chosen_by=chosen_by)

    def action_open_html(self) -> None:
        """Open the HTML report of the run (of the selected case's eval set) in the browser."""
        run = self.live
        if run is None or not run.html_reports:
            self.notify("This run wrote no HTML report.", severity="warning")
            return
        open_in_browser(self, Path(self._report_for_selected(run.html_reports)))

    def _report_for_selected(self, files: list[str]) -> str:
        run = self.live
        if run is not None and self.selected in run.cases:
            set_id = run.cases[self.selected].eval_set_id
            for file in files:
                if Path(file).name.startswith(set_id):
                    return file
        return files[0]

    def action_browse_report(self) -> None:
        """Open this run's report in the report browser."""
        run = self.live
        reports = [f for f in (run.report_files if run else []) if f.endswith(".json")]
        if not reports:
            self.notify("This run wrote no JSON report.", severity="warning")
            return
        from tenxeval_tui.screens.reports.report_detail import ReportScreen

        self.app.push_screen(ReportScreen(Path(self._report_for_selected(reports))))

    def action_toggle_watch(self) -> None:
        """Turn watch mode on or off."""
        switch = self.query_one("#watch", Checkbox)
        switch.value = not switch.value

    @on(Checkbox.Changed, "#watch")
    def _watch_changed(self, event: Checkbox.Changed) -> None:
        if event.value:
            self.run_worker(self.watcher.start(), group="watch", exclusive=True)
        else:
            self.watcher.stop()

    async def action_back(self) -> None:
        """Close what is open on top, or return to the screen before the run view."""
        await go_back_one_step(self)

    def action_focus_cases(self) -> None:
        """Focus the case table."""
        self.set_focus(self.query_one(RunCaseTable))  # now: the keys pressed next go there

    def action_focus_events(self) -> None:
        """Focus the event pane (its events or its transcript)."""
        pane = self.transcript.pane if self.transcript.on else self.query_one(EventStream)
        self.set_focus(pane)

    def action_toggle_transcript(self) -> None:
        """Show the followed case's transcript in the event pane, or its events again."""
        self.transcript.toggle()

    async def on_unmount(self) -> None:
        self.watcher.stop()
        await self._stop_process()


def _workers(setting: int | str | None) -> int | None:
    """The settings' ``workers`` as a count (``auto``: the cores; checked when the settings
    were read)."""
    from tenxeval_tui.runs.pool import resolve_workers

    try:
        return resolve_workers(setting)
    except ValueError:
        return None


def ready_run_files(
    files: list[Path], config_file: Path | None, choice: RunChoice
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """``files`` less the scenario files that cannot run with the run's config, and those
    with why (a config that does not load leaves them all to the worker, which says so)."""
    from tenxeval_tui.runs.scenario_check import runnable_files

    plan = RunPlan(agent="", eval_sets=[], config_file=config_file, preset=choice.preset)
    try:
        config = plan.resolved_config()
    except (EvalFileError, OSError, ValueError):
        return files, []
    return runnable_files(files, config)


def _eval_sets_of(paths: list[Path]) -> dict[str, tuple[Path, str]]:
    """``eval_set_id -> (path, name)`` of each file (raises what loading raises)."""
    found: dict[str, tuple[Path, str]] = {}
    for path in paths:
        eval_set = load_run_file(path)
        found[eval_set.eval_set_id] = (path, eval_set.name)
    return found


def _new_journal(output_dir: Path) -> Path:
    """A new journal of a run view's run, in the reports' folder."""
    return output_dir / ".journal" / f"run-{uuid.uuid4().hex[:12]}.jsonl"


def _write_complete_reports(run: LiveRun, rest: RestOfRun, *, finished: bool) -> None:
    """Write the complete reports of the run ``rest`` completed (see
    :func:`~tenxeval_tui.runs.rest_of_run.write_complete`)."""
    try:
        written = write_complete(rest, finished=finished)
    except (EvalFileError, OSError):
        return  # nothing readable was left: the run's message says what happened
    run.report_files, run.html_reports = written.files, written.html


def _write_partial_reports(run: LiveRun, request: RunPlan, *, cancelled: bool) -> None:
    """Rebuild the finished cases from the journal of a stopped worker (cancelled, or
    killed by its agent); write them as partial."""
    from tenxeval_tui.runs.reports import journal_reports, write_reports

    assert request.journal is not None
    if not request.journal.is_file():
        return
    try:
        reports = journal_reports(request.journal)
        config = request.resolved_config()
    except (EvalFileError, OSError):
        return  # nothing readable was left: the run's message says what happened
    if not reports:
        return
    reports = [request.with_report_marks(report) for report in reports]
    written = write_reports(reports, config.reporter, console=False)
    run.report_files, run.html_reports = written.files, written.html
    if cancelled:
        run.partial = True


__all__ = ["RunScreen"]
