"""The cases of a run, one row each, updated in place as their state changes.

A :class:`~tenxeval_tui.widgets.common.virtual_table.VirtualTable` over the case keys:
a case joining the run costs an append, a case that changed repaints its one row, and
only the rows on screen are ever drawn (10,000 queued cases show at once).

The columns share the table's width by priority (:mod:`~tenxeval_tui.widgets.run.run_columns`):
each case's score numbers stay on screen down to 80 columns; when the width (or the widest
scores) calls for other columns, the rows are drawn anew in them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from tenxeval_tui.browsing.case_flips import FLIP_MARK
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.case_steps import clock_text
from tenxeval_tui.runs.live_run import CaseState, CaseStatus
from tenxeval_tui.widgets.common.markable_table import MARK_KEYS, MarkableTable
from tenxeval_tui.widgets.common.virtual_table import CURSOR_KEYS, Column
from tenxeval_tui.widgets.run.run_columns import (
    CELL_PADDING,
    ColumnPlan,
    plan_columns,
    score_label,
    scores_width,
)

STATUS_STYLE = {
    CaseStatus.QUEUED: ("· queued", "dim"),
    CaseStatus.RUNNING: ("▶ running", "bold yellow"),
    CaseStatus.PASSED: ("✓ passed", "green"),
    CaseStatus.FAILED: ("✗ failed", "bold red"),
    CaseStatus.ERROR: ("! error", "bold magenta"),
    CaseStatus.CARRIED: ("↺ carried", "cyan"),
    CaseStatus.CANCELLED: ("- cancelled", "dim"),
}


FLIP_STYLE = "bold yellow"
FLIP_LEGEND = f"{FLIP_MARK} flipped in recent runs or repeats"
"""The table's legend (its border's subtitle) while a row has the mark."""


def case_cell(state: CaseState, *, flipped: bool = False) -> Text:
    """The case's name (or id), after the flip mark when it flipped in its eval set's
    last runs (``flipped``) or its repeats disagree in this run."""
    name = inert(state.name or state.eval_id)
    if flipped or state.repeats_disagree:
        return Text.assemble((f"{FLIP_MARK} ", FLIP_STYLE), name)
    return Text(name)


def status_text(status: CaseStatus, *, short: bool = False) -> Text:
    """The status cell: a sign and a word (only the sign when ``short``), coloured."""
    label, style = STATUS_STYLE[status]
    return Text(label.split()[0] if short else label, style=style)


RETRIED_MARK = "↻"
"""After the status of a case that runs (or ran) again because its worker died."""


def status_cell(state: CaseState, now: float, slow_after: float | None, *, short: bool) -> Text:
    """The status cell of ``state`` at ``now``: a running case says which of its repeats it
    is on (``▶ 2/5``) and, past ``slow_after`` seconds, that it is slow; a case retried
    after its worker died ends with :data:`RETRIED_MARK` (not when ``short``)."""
    cell = _status(state, now, slow_after, short=short)
    if state.retried is not None and not short:
        cell.append(f" {RETRIED_MARK}", style="bold cyan")
    return cell


def _status(state: CaseState, now: float, slow_after: float | None, *, short: bool) -> Text:
    if state.status != CaseStatus.RUNNING:
        passed_of = runs_passed(state)
        if passed_of is None or short:
            return status_text(state.status, short=short)
        label, style = STATUS_STYLE[state.status]
        return Text(f"{label.split()[0]} {passed_of}", style=style)  # ✗ 3/5: runs passed
    slow = state.is_slow(now, slow_after)
    style = "bold red" if slow else STATUS_STYLE[CaseStatus.RUNNING][1]
    if short:
        return Text("▶", style=style)
    if state.repeats > 1:
        return Text(f"▶ {state.repeats_done}/{state.repeats}", style=style)
    return Text("▶ slow" if slow else "▶ running", style=style)


def runs_passed(state: CaseState) -> str | None:
    """``3/5``, the runs passed of a finished case run several times (``None`` for a case
    that ran once or has not finished)."""
    if state.status not in (CaseStatus.PASSED, CaseStatus.FAILED, CaseStatus.ERROR):
        return None
    stats = state.result.repeat_stats if state.result is not None else None
    if stats is not None and stats.repeats > 1:
        return f"{stats.passed_repeats}/{stats.repeats}"
    if state.repeats > 1 and state.repeats_done:
        return f"{state.repeats_passed}/{state.repeats_done}"
    return None


def time_cell(state: CaseState, now: float, slow_after: float | None) -> Text:
    """How long the case took, or (running) how long it has run so far, ticking."""
    running = state.running_for(now)
    if running is not None:
        slow = state.is_slow(now, slow_after)
        return Text(clock_text(running), style="bold red reverse" if slow else "yellow")
    return Text("" if state.duration is None else f"{state.duration:.2f}s")


def scores_text(state: CaseState, form: str = "full") -> Text:
    """``criterion score`` pairs written in ``form`` (see
    :data:`~tenxeval_tui.widgets.run.run_columns.SCORE_FORMS`), failed ones in red; the error
    when the case errored."""
    if state.result is not None and state.result.error:
        return Text(inert(state.result.error[:80]), style="magenta")
    text = Text(no_wrap=True, overflow="ellipsis")
    for index, (criterion, score, passed) in enumerate(state.scores):
        if index:
            text.append("  ")
        text.append(score_label(inert(criterion), score, form), style="green" if passed else "red")
    return text


class RunCaseTable(MarkableTable):
    """Rows keyed by case key; :meth:`show` adds or updates one row; enter opens its detail
    (``Selected`` and ``Highlighted`` carry the case key). Cases can be selected
    (``space``, ``*``: :attr:`marked_keys` are case keys) for an action on several.
    A ``~`` before a case's name marks a case that flipped (:meth:`set_flipped`, or its
    repeats in this run); while nothing is selected, the border's subtitle says so."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *CURSOR_KEYS,
        Binding("enter", "select", "Case detail", tooltip="The selected case's detail"),
        *MARK_KEYS,
    ]

    DEFAULT_CSS = """
    RunCaseTable {
        height: 1fr;
        background: $surface;
        /* The columns count it in always; shown always, the first rows of a run do not
           lay the screen out a second time to show it. */
        overflow-y: scroll;
    }
    RunCaseTable:focus {
        background-tint: $foreground 5%;
    }
    """

    CELL_PADDING = CELL_PADDING // 2

    def __init__(self, *, timings: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timings = timings
        self._keys: list[str] = []
        self._row_of: dict[str, int] = {}
        self._states: dict[str, tuple[CaseState, str]] = {}
        """Every row's case and eval set label."""
        self._widest: list[tuple[str, float]] = []
        """The scores of the case with the longest scores, which the column should fit."""
        self._layout_pending = False
        self._flipped: frozenset[str] = frozenset()
        """Keys of the cases that flipped in their eval set's last runs."""
        self._disagreed: set[str] = set()
        """Keys of the cases whose repeats disagree in this run."""
        self.now = 0.0
        """The run's clock at the last :meth:`tick` (running cases' times are counted to it)."""
        self.slow_after: float | None = None
        """Seconds after which a running case shows as slow."""
        self.plan: ColumnPlan = plan_columns(80, [])
        self.columns = self._plan_columns()
        self._items = self._keys

    def on_resize(self, event: events.Resize) -> None:
        self._replan()
        super().on_resize(event)

    @property
    def _width(self) -> int:
        # A vertical scrollbar is counted in always, so rows arriving never change the plan.
        return max(self.size.width - self.styles.scrollbar_size_vertical - self.lead_width, 0)

    def lead_changed(self) -> None:
        self._replan()
        super().lead_changed()

    def is_failed(self, item: object) -> bool:
        state = self._states.get(str(item))
        return state is not None and state[0].status == CaseStatus.FAILED

    def _plan_columns(self) -> list[Column]:
        return [
            Column("" if key == "status" and self.plan.status_short else key, width)
            for key, width in self.plan.widths.items()
        ]

    def _replan(self) -> None:
        """Lay the rows out anew if the width or the widest scores call for other columns."""
        if not self._width:
            return
        plan = plan_columns(self._width, self._widest)
        if plan == self.plan:
            return
        self.plan = plan
        self.columns = self._plan_columns()
        self.replace_items(self._keys)

    # --- rows ------------------------------------------------------------------------

    def show(self, state: CaseState, eval_set_label: str = "") -> None:
        """Add the row of ``state`` (in eval set ``eval_set_label``), or repaint it.

        Rows added by many calls in a row are laid out once, after them."""
        if self._show(state, eval_set_label) and not self._layout_pending:
            self._layout_pending = True
            self.call_later(self._rows_added)

    def show_all(self, cases: Iterable[tuple[CaseState, str]]) -> None:
        """:meth:`show` each ``(state, eval set label)``; the rows added are laid out at
        once (in the frame that shows them)."""
        added = False
        for state, eval_set_label in cases:
            added = self._show(state, eval_set_label) or added
        if added:
            self._rows_added()

    def _rows_added(self) -> None:
        self._layout_pending = False
        self._show_legend()
        self.update_virtual_size()
        self.cursor = self.cursor  # the first rows highlight the first case
        self.refresh()

    def _show(self, state: CaseState, eval_set_label: str) -> bool:
        """Note ``state``; ``True`` when it is a new row."""
        key = state.key
        self._states[key] = (state, eval_set_label)
        if state.repeats_disagree and key not in self._disagreed:
            self._disagreed.add(key)
            self._show_legend()
        if state.result is not None:
            scores = [(criterion, score) for criterion, score, _ in state.scores]
            if scores_width(scores, "full") > scores_width(self._widest, "full"):
                self._widest = scores
                self._replan()
        index = self._row_of.get(key)
        if index is not None:
            self.refresh_row(index)
            return False
        self._row_of[key] = len(self._keys)
        self._keys.append(key)
        return True

    def set_flipped(self, keys: frozenset[str]) -> None:
        """Mark the cases with these keys as flipped in their eval sets' last runs."""
        if keys != self._flipped:
            self._flipped = frozenset(keys)
            self.refresh_rows()
            self._show_legend()

    @property
    def flipped_keys(self) -> list[str]:
        """The keys of the rows with the flip mark, in table order."""
        return [k for k in self._keys if k in self._flipped or k in self._disagreed]

    def _show_legend(self) -> None:
        """The flip legend in the border's subtitle, unless it counts the selection."""
        if self.mark_count:
            return
        flipped = bool(self._disagreed) or not self._flipped.isdisjoint(self._row_of)
        self.border_subtitle = FLIP_LEGEND if flipped else ""

    def _marks_changed(self, had: bool) -> None:
        super()._marks_changed(had)
        self._show_legend()  # the selection cleared: the legend again

    def tick(self, now: float, running: Iterable[str] = ()) -> None:
        """Count running cases' times to ``now``; repaint the rows of ``running`` (keys)."""
        self.now = now
        for key in running:
            index = self._row_of.get(key)
            if index is not None:
                self.refresh_row(index)

    def forget(self, key: str) -> None:
        """Remove the row of case ``key`` (if shown)."""
        if self._states.pop(key, None) is None:
            return
        self._disagreed.discard(key)
        self._keys.remove(key)
        self.set_marks([k for k in self.marked_keys if k != key])
        self._row_of = {k: i for i, k in enumerate(self._keys)}
        self.replace_items(self._keys)
        self.cursor = self.cursor
        self._show_legend()

    def reset(self) -> None:
        """Remove every row and the selection (the columns stay)."""
        self._keys = []
        self._row_of = {}
        self._states.clear()
        self._disagreed.clear()
        self.clear_marks()
        self.replace_items(self._keys)
        self.cursor = 0
        self._show_legend()

    def has_key(self, key: str) -> bool:
        """Whether case ``key`` has a row."""
        return key in self._row_of

    def index_of(self, item: object) -> int | None:
        return self._row_of.get(item) if isinstance(item, str) else None

    @property
    def selected_key(self) -> str | None:
        """The key of the row under the cursor."""
        key = self.current
        return None if key is None else str(key)

    # --- drawing ---------------------------------------------------------------------

    def row_cells(self, index: int) -> Sequence[Text]:
        return self.cells_of(self._keys[index])

    def cells_of(self, key: str) -> list[Text]:
        """The cells of case ``key``'s row, in the columns of the current plan."""
        state, eval_set_label = self._states[key]
        plan = self.plan
        cells = {
            "status": status_cell(state, self.now, self.slow_after, short=plan.status_short),
            "eval set": Text(inert(eval_set_label or state.eval_set_id)),
            "case": case_cell(state, flipped=key in self._flipped),
            "time": time_cell(state, self.now, self.slow_after) if self.timings else Text(),
            "tokens": Text(str(state.tokens) if state.tokens else ""),
            "scores": self._scores_or_step(state, plan.score_form),
        }
        return [cells[column] for column in plan.widths]

    def _scores_or_step(self, state: CaseState, form: str) -> Text:
        """A finished case's scores; a running one's step in flight (with its clock)."""
        step = state.current_step
        if step is None:
            return scores_text(state, form)
        label = step.text(self.now) if self.timings else step.label
        return Text(label, style="italic yellow", no_wrap=True, overflow="ellipsis")


__all__ = ["RunCaseTable", "case_cell", "scores_text", "status_cell", "status_text", "time_cell"]
