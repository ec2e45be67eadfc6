"""The run view's variants: choose some of ``[tool.tenxeval] variants``, run them side by
side on what the run view's options select (one worker each, all at once), watch one
column per variant fill in live, then browse their matrix."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Protocol

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, SelectionList, Static

from tenxeval_tui.evaluation.analysis.matrix_text import variant_line
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.variant_spec import Variant, VariantError
from tenxeval_tui.runs.live_run import LiveRun
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.variant_live import VariantRuns, workspace_variants
from tenxeval_tui.runs.worker_process import WorkerProcess
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.shared_styles import RUN_CSS
from tenxeval_tui.screens.reports.matrix import MatrixScreen
from tenxeval_tui.settings.workspace import Workspace
from tenxeval_tui.widgets.run.run_options import RunChoice
from tenxeval_tui.widgets.run.variant_columns import VariantColumns


class VariantHost(Protocol):
    """What the variants screen needs of the run view it was opened from."""

    @property
    def workspace(self) -> Workspace: ...

    @property
    def output_dir(self) -> Path: ...

    @property
    def search_path(self) -> Path: ...

    def options_choice(self) -> RunChoice: ...

    def chosen_paths(self, choice: RunChoice) -> list[Path]: ...

    def plan_for(
        self,
        paths: list[Path],
        choice: RunChoice,
        *,
        only: dict[str, list[str]] | None = None,
        eval_ids: Sequence[str] = (),
        tags: list[str] | None = None,
    ) -> RunPlan: ...


REFRESH_SECONDS = 0.25


class VariantRunScreen(Screen[None]):
    """Variants chosen, run side by side live, their matrix (see the module)."""

    RUNS_ITSELF = True
    """Its own ctrl+r runs the chosen variants (the app's run-everywhere key stands aside)."""

    CSS_PATH = RUN_CSS

    HELP_WHERE = "variants"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding(
            "ctrl+r", "start", "Run", priority=True, tooltip="Run the chosen variants side by side"
        ),
        Binding("ctrl+k", "cancel", "Cancel", priority=True, tooltip="Stop every variant's run"),
        Binding("ctrl+o", "matrix", "Matrix", tooltip="Browse the matrix of the last run"),
        Binding("ctrl+l", "focus_choice", "Choose", tooltip="The variants to run"),
        Binding("ctrl+g", "focus_columns", "Columns", tooltip="The cases side by side"),
    ]

    def __init__(self, run_screen: VariantHost) -> None:
        super().__init__()
        self.run_screen = run_screen
        self.variants: list[Variant] = []
        self.problem: str | None = None
        self.live: VariantRuns | None = None
        self.processes: list[WorkerProcess] = []
        self.runs_finished = 0

    def compose(self) -> ComposeResult:
        yield Static(id="variants-header")
        yield SelectionList[str](id="variants-choice")
        yield VariantColumns(id="variants-columns")
        yield Static(id="variants-summary")
        yield Footer()

    def on_mount(self) -> None:
        try:
            self.variants = workspace_variants(self.run_screen.workspace)
        except VariantError as exc:
            self.problem = str(exc)
        choice = self.query_one(SelectionList)
        for variant in self.variants:
            choice.add_option((inert(variant.name), variant.name, True))
        if self.variants:
            choice.highlighted = 0
        if self.problem:
            self._header(self.problem, "bold red")
        elif not self.variants:
            self._header(
                "No variants: add [[tool.tenxeval.variants]] tables (name, agent, params) to "
                "pyproject.toml.",
                "yellow",
            )
        else:
            self._header(
                f"{len(self.variants)} variants: choose with space, run with ctrl+r "
                "(on what the run view's options select).",
                "",
            )
        choice.focus()

    def _header(self, text: str, style: str) -> None:
        self.query_one("#variants-header", Static).update(Text(inert(text), style=style))

    @property
    def chosen(self) -> list[Variant]:
        """The variants ticked, in their order."""
        ticked = set(self.query_one(SelectionList).selected)
        return [v for v in self.variants if v.name in ticked]

    @property
    def running(self) -> bool:
        """Whether a variant run is going."""
        return self.live is not None and not self.live.done

    def action_start(self) -> None:
        """Run the chosen variants (at least one), all at once."""
        if self.running:
            return
        chosen = self.chosen
        if not chosen:
            self._header("Choose at least one variant (space).", "bold red")
            return
        screen = self.run_screen
        choice = screen.options_choice()
        paths = screen.chosen_paths(choice)
        if not paths:
            self._header("No eval sets to run.", "bold red")
            return
        base = screen.plan_for(paths, choice, eval_ids=choice.eval_ids, tags=choice.tags)
        self.live = VariantRuns.of(base, chosen, screen.output_dir, LiveRun)
        columns = self.query_one(VariantColumns)
        columns.start(self.live.names)
        self._header(f"Running {len(chosen)} variants side by side…", "cyan")
        self.query_one("#variants-summary", Static).update("")
        columns.focus()
        self._run(self.live)

    @work(exclusive=True, group="variants")
    async def _run(self, live: VariantRuns) -> None:
        cwd = self.run_screen.search_path
        self.processes = [
            WorkerProcess(live.plans[name], live.runs[name], cwd=cwd) for name in live.names
        ]
        ticker = self.set_interval(REFRESH_SECONDS, self._refresh_columns)
        try:
            for process in self.processes:
                await process.start()
            await asyncio.gather(*(process.pump() for process in self.processes))
        except OSError as exc:
            self._header(f"cannot start a worker: {exc}", "bold red")
        finally:
            ticker.stop()
        for name, run in live.runs.items():
            if not run.done:
                run.finish(None)
            if run.worker_error:
                self.notify(inert(f"{name}: {run.worker_error}"), severity="error", markup=False)
        self._refresh_columns()
        matrix = await asyncio.to_thread(live.finish, time.strftime("%Y%m%d-%H%M%S"))
        if matrix is None:
            self._header("No variant wrote a report.", "bold red")
        else:
            lines = [variant_line(rank, v) for rank, v in enumerate(matrix.variants, 1)]
            self.query_one("#variants-summary", Static).update(Text(inert("\n".join(lines))))
            self._header("Done: ctrl+o browses the matrix.", "green")
        self.runs_finished += 1
        self.refresh_bindings()

    def _refresh_columns(self) -> None:
        if self.live is not None:
            self.query_one(VariantColumns).show(self.live.rows())

    async def action_cancel(self) -> None:
        """Stop every variant's run (each writes the report of its finished cases)."""
        for process in self.processes:
            await process.cancel()

    def action_matrix(self) -> None:
        """The matrix of the last variant run."""
        if self.live is not None and self.live.matrix is not None:
            self.app.push_screen(MatrixScreen(self.live.matrix, self.live.reports))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "matrix":
            return self.live is not None and self.live.matrix is not None
        if action == "cancel":
            return self.running
        return True

    def action_focus_choice(self) -> None:
        """The variants to choose from."""
        self.query_one(SelectionList).focus()

    def action_focus_columns(self) -> None:
        """The cases side by side."""
        self.query_one(VariantColumns).focus()

    async def action_back(self) -> None:
        """Back to the run view (the variants' runs stopped first)."""
        await self.action_cancel()
        if can_go_back(self):
            await go_back_one_step(self)

    async def on_unmount(self) -> None:
        for process in self.processes:
            process.kill()


__all__ = ["VariantHost", "VariantRunScreen"]
