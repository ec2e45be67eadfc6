"""The history view's chart: one metric of an eval set's runs, with a cursor on one run.

A :class:`PlotextPlot` (textual-plotext): pass rate with its 95% interval, cost, wall
time, or each criterion's pass rate, over the runs shown; the selected run is marked by
a vertical line. A run of a selection of the cases (``metadata.selection``: a rerun of
the failed ones, a filter) keeps its place on the x axis but is no point of any series. ``left``/``right``/``home``/``end`` move the cursor, which posts
:class:`HistoryChart.Selected`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from tenxeval_tui.browsing.history.series import RunPoint
from tenxeval_tui.evaluation.inert import inert

type Points = list[tuple[int, RunPoint]]
"""The runs charted, each with its place on the x axis (1-based)."""

METRICS = ("pass rate", "cost", "wall time", "criteria")
"""What the chart can show, in the order ``m`` cycles through them."""
_LINE_COLORS = ("cyan", "magenta", "green", "yellow", "blue", "red", "white")


class HistoryChart(PlotextPlot):
    """One metric of ``runs`` over time; ``selected`` is the run under the cursor."""

    can_focus = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Earlier run", show=False),
        Binding("right", "move(1)", "Later run", show=False),
        Binding("home", "move(-100000)", "First run", show=False),
        Binding("end", "move(100000)", "Last run", show=False),
    ]

    DEFAULT_CSS = """
    HistoryChart {
        height: 1fr;
        min-height: 8;
    }
    HistoryChart:focus {
        border-left: thick $accent;
    }
    """

    selected: reactive[int] = reactive(0)
    metric: reactive[str] = reactive(METRICS[0])

    @dataclass
    class Selected(Message):
        """The cursor moved to the run at ``index`` of the runs shown."""

        chart: HistoryChart
        index: int

        @property
        def control(self) -> HistoryChart:
            """The chart whose cursor moved."""
            return self.chart

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.runs: list[RunPoint] = []

    def show_runs(self, runs: Sequence[RunPoint], selected: int | None = None) -> None:
        """Chart ``runs`` (oldest first), the cursor on ``selected`` (default: the last)."""
        self.runs = list(runs)
        last = max(len(self.runs) - 1, 0)
        self.selected = last if selected is None else min(max(selected, 0), last)
        self.replot()

    def validate_selected(self, value: int) -> int:
        return min(max(value, 0), max(len(self.runs) - 1, 0))

    def watch_selected(self, value: int) -> None:
        self.replot()
        self.post_message(self.Selected(self, value))

    def watch_metric(self) -> None:
        self.replot()

    def action_move(self, step: int) -> None:
        """Move the cursor ``step`` runs (clamped to the first and last)."""
        self.selected = self.selected + step

    def replot(self) -> None:
        """Draw the chart again from ``runs``, ``metric`` and ``selected``."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        if not self.runs:
            plt.title("No runs")
            self.refresh()
            return
        # A selection's run (a rerun of the failed cases, a filter) keeps its place on the
        # x axis, for the cursor and the cases' strips, but is no point of any series.
        points = [(x, r) for x, r in enumerate(self.runs, start=1) if r.series]
        if not points:
            plt.title("Only runs of a selection of the cases: nothing to chart")
        elif self.metric == "pass rate":
            self._pass_rate(points)
        elif self.metric == "cost":
            self._series(points, [r.cost for _, r in points], "cost ($)")
        elif self.metric == "wall time":
            walls = [r.wall if r.wall is not None else r.duration for _, r in points]
            self._series(points, walls, "wall time (s)")
        else:
            self._criteria(points)
        plt.vline(self.selected + 1, "red")
        plt.xticks([float(x) for x in _run_ticks(len(self.runs))], None)
        plt.xlabel("run")
        self.refresh()

    def _pass_rate(self, points: Points) -> None:
        plt = self.plt
        xs = [x for x, _ in points]
        plt.plot(xs, [r.interval[1] * 100 for _, r in points], color="gray", marker="braille",
                 label="95% interval")  # fmt: skip
        plt.plot(xs, [r.interval[0] * 100 for _, r in points], color="gray", marker="braille")
        plt.plot(xs, [r.pass_rate * 100 for _, r in points], color="cyan", marker="hd",
                 label="pass rate %")  # fmt: skip
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100])

    def _series(self, points: Points, values: Sequence[float | None], label: str) -> None:
        known = [(x, v) for (x, _), v in zip(points, values, strict=True) if v is not None]
        if not known:
            self.plt.title(f"No {label.split(' (')[0]} recorded")
            return
        self.plt.plot([x for x, _ in known], [v for _, v in known], color="cyan", marker="hd",
                      label=label)  # fmt: skip

    def _criteria(self, runs: Points) -> None:
        names = list(dict.fromkeys(n for _, r in runs for n in r.criteria))
        if not names:
            self.plt.title("No criteria recorded")
            return
        for number, name in enumerate(names):
            points = [(x, r.criteria[name][1] * 100) for x, r in runs if name in r.criteria]
            self.plt.plot([x for x, _ in points], [y for _, y in points], marker="hd",
                          color=_LINE_COLORS[number % len(_LINE_COLORS)], label=inert(name))  # fmt: skip
        self.plt.ylim(0, 100)
        self.plt.yticks([0, 25, 50, 75, 100])


def _run_ticks(runs: int, most: int = 8) -> list[int]:
    """Whole run numbers to mark on the x axis: at most ``most``, the last run among them."""
    step = max(1, -(-runs // most))
    ticks = list(range(runs, 0, -step))
    return sorted(ticks)


__all__ = ["METRICS", "HistoryChart"]
