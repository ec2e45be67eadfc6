"""Threshold what-if: change a criterion's threshold, or turn it off, and see the verdicts move.

The report is scored again in a thread (see :mod:`tenxeval_tui.browsing.what_if`: no
agent runs, no judge is called) after each change; the newest change wins. Nothing is
written until ``w`` saves the result as a new report beside the original, or ``g``
the thresholds as an eval config file in the workspace.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.what_if import STEP, VerdictChange, WhatIf, verdict_changes
from tenxeval_tui.evaluation.criteria import CriterionConfigError
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.common.shared_styles import REPORTS_CSS
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.reports.status_text import delta_text
from tenxeval_tui.widgets.reports.what_if_tables import CriterionSettingsTable, VerdictChangeTable


def what_if_path(report: Path, ending: str = ".json") -> Path:
    """A free name beside ``report`` for a what-if of it: ``NAME.what-if.json``, then
    ``NAME.what-if-2.json``... (``ending``: what follows ``what-if``)."""
    return free_path(report.parent, f"{report.stem}.what-if", ending)


def free_path(folder: Path, stem: str, ending: str) -> Path:
    """``folder/STEM ENDING``, or ``folder/STEM-2 ENDING``... whichever does not exist."""
    candidate = folder / f"{stem}{ending}"
    n = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{n}{ending}"
        n += 1
    return candidate


class WhatIfScreen(Screen[None]):
    """The criteria of a report with their thresholds, and the cases whose verdict moves."""

    CSS_PATH = REPORTS_CSS

    HELP_WHERE = "threshold what-if"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("plus,equals_sign", "nudge(1)", f"+{STEP:g}", key_display="+"),
        Binding("minus", "nudge(-1)", f"-{STEP:g}", key_display="-"),
        Binding("space", "toggle_criterion", "On/off"),
        # not r (the run view, from every screen) nor w (watch): one key, one meaning
        Binding("0", "reset", "Reset", tooltip="Every criterion back to its threshold"),
        Binding("ctrl+s", "save", "Save as report", tooltip="Save the result beside the report"),
        Binding("g", "save_config", "Save config"),
    ]

    def __init__(self, path: str | Path, document: ReportDocument | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.document = document
        self.what_if: WhatIf | None = None
        self.result: EvalReport | None = None
        """The report the settings give (``None`` until scored, and while rescoring)."""
        self.changes: list[VerdictChange] = []
        self.saved: Path | None = None
        self.saved_config: Path | None = None
        self._generation = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("Reading the report…", style="dim"), id="what-if-header")
        yield CriterionSettingsTable(id="what-if-criteria")
        yield Static(id="what-if-cases-title")
        yield VerdictChangeTable(id="what-if-cases")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="what-if-load")
    def _load(self) -> None:
        try:
            document = self.document or ReportDocument.open(self.path)
            what_if = WhatIf(document.full_report())
        except (EvalFileError, OSError, ValueError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._ready, what_if)

    def _show_error(self, message: str) -> None:
        self.query_one("#what-if-header", Static).update(
            Text.assemble(
                ("Cannot score this report\n", "bold red"), (inert(message, multiline=True), "red")
            )
        )

    def _ready(self, what_if: WhatIf) -> None:
        self.what_if = what_if
        self.result = what_if.report
        self._show_settings()
        self._show_result()
        self.query_one(CriterionSettingsTable).focus()

    # --- the settings -------------------------------------------------------------------

    @property
    def _current(self) -> str | None:
        setting = self.query_one(CriterionSettingsTable).current
        return setting.name if setting is not None else None

    def _show_settings(self) -> None:
        if self.what_if is None:
            return
        table = self.query_one(CriterionSettingsTable)
        table.replace_items(list(self.what_if.settings.values()))

    def _changed(self) -> None:
        self._show_settings()
        self.result = None
        self._generation += 1
        self.query_one("#what-if-header", Static).update(self._header())
        self.refresh_bindings()  # no saving while scoring
        self._rescore(self._generation)

    def action_nudge(self, steps: int) -> None:
        name = self._current
        if self.what_if is not None and name is not None:
            self.what_if.nudge(name, steps)
            self._changed()

    def action_toggle_criterion(self) -> None:
        name = self._current
        if self.what_if is not None and name is not None:
            self.what_if.toggle(name)
            self._changed()

    def action_reset(self) -> None:
        if self.what_if is not None and self.what_if.changed:
            self.what_if.reset()
            self._changed()

    # --- scoring ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="what-if-score")
    def _rescore(self, generation: int) -> None:
        assert self.what_if is not None
        try:
            report = asyncio.run(self.what_if.apply())
        except (CriterionConfigError, ValueError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._scored, generation, report)

    def _scored(self, generation: int, report: EvalReport) -> None:
        if generation != self._generation:
            return  # a newer change is being scored
        self.result = report
        self._show_result()

    def _show_result(self) -> None:
        assert self.what_if is not None and self.result is not None
        self.changes = verdict_changes(self.what_if.report, self.result)
        self.query_one("#what-if-header", Static).update(self._header())
        self.query_one(VerdictChangeTable).replace_items(self.changes)
        self.refresh_bindings()  # saving is offered once there is a changed result
        now_pass = sum(1 for c in self.changes if c.after == "passed")
        self.query_one("#what-if-cases-title", Static).update(
            Text.assemble(
                (f"{len(self.changes)} case(s) change", "bold"),
                f": {now_pass} now pass, {len(self.changes) - now_pass} no longer pass",
            )
        )

    def _header(self) -> Text:
        assert self.what_if is not None
        before = self.what_if.report.summary
        text = Text.assemble(
            ("What if ", "bold"),
            (inert(self.what_if.report.eval_set_name or self.what_if.report.eval_set_id), "bold"),
            (f"  {self.path.name}", "dim"),
            "\nPass rate ",
            f"{before.pass_rate:.1%} → ",
        )
        if self.result is None:
            text.append("scoring…", style="yellow")
        else:
            after = self.result.summary.pass_rate
            text.append(f"{after:.1%} ")
            text.append_text(delta_text(after - before.pass_rate, points=True))
            text.append(f"   {self.result.summary.passed_cases} of {len(self.result.results)} pass")
        if not self.what_if.from_config:
            text.append(
                "\nThe report records no config: its criteria are scored at their defaults "
                "with the thresholds it records.",
                style="dim",
            )
        if self.saved is not None:
            text.append(f"\nSaved as {inert(str(self.saved))}", style="green")
        return text

    # --- saving -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return can_go_back(self)
        if action == "save":
            return self.result is not None and self.what_if is not None and self.what_if.changed
        if action == "save_config":
            return self.what_if is not None and self.what_if.changed
        return True

    def action_save_config(self) -> None:
        """Write the thresholds tried as an eval config file, in the workspace's folder
        (``EVAL_SET.what-if.config.json``; not beside the reports, where it would be
        listed as a report): a run with ``--config`` uses them."""
        if self.what_if is None or not self.what_if.changed:
            return
        folder = host_of(self.app).workspace.root.resolve()
        target = free_path(folder, f"{self.what_if.report.eval_set_id}.what-if", ".config.json")
        try:
            self.what_if.config().to_file(target)
        except OSError as exc:
            self.notify(str(exc), title="Cannot save", severity="error", markup=False)
            return
        self.saved_config = target
        self.notify(f"Saved the config as {target}", markup=False)

    def action_save(self) -> None:
        """Write the what-if's report beside the original (only on this key)."""
        if self.result is None or self.what_if is None or not self.what_if.changed:
            return
        target = what_if_path(self.path)
        try:
            self.result.to_file(target)
        except OSError as exc:
            self.notify(str(exc), title="Cannot save", severity="error", markup=False)
            return
        self.saved = target
        self.query_one("#what-if-header", Static).update(self._header())
        self.notify(f"Saved {target.name}", markup=False)

    async def action_back(self) -> None:
        """Close this screen, or at its mode's first screen, return to the mode before."""
        await go_back_one_step(self)
