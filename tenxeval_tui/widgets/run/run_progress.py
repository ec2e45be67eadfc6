"""A run at a glance: progress bar, case counts, pass rate with its interval (and each
criterion's), elapsed time, pace and time left, tokens and cost."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import ProgressBar

from tenxeval_tui.evaluation.cost import format_cost
from tenxeval_tui.evaluation.stats import wilson_interval
from tenxeval_tui.runs.live_run import FINISHED, CaseState, CaseStatus, LiveRun
from tenxeval_tui.widgets.run.run_columns import short_name

FIGURE_GAP = "  "
"""What parts two figures of the figures line."""

NARROW = 130
"""Below this many columns the figures go under the bar."""

COUNT_STYLES = (
    ("queued", "dim"),
    ("running", "yellow"),
    ("passed", "green"),
    ("failed", "red"),
    ("error", "magenta"),
    ("carried", "cyan"),
    ("cancelled", "dim"),
)


@dataclass(frozen=True, slots=True)
class RunTally:
    """A run's figures, counted in one pass over its cases (the view counts them several
    times a second, and a run may hold 10,000 cases): what :class:`LiveRun`'s
    ``counts()``, ``completed``, ``pass_rate`` and ``tokens`` say, at once, plus each
    criterion's passes and the cost of the finished cases."""

    counts: dict[str, int]
    total: int
    completed: int
    passed: int
    tokens: int
    criteria: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Criterion -> (cases it passed, cases it scored), in the order first seen."""
    cost: float | None = None
    """What the finished cases cost (only with a price table)."""

    @classmethod
    def of(cls, run: LiveRun) -> RunTally:
        """Count ``run``'s cases."""
        counter = RunCounter()
        return counter.tally(run)

    @property
    def pass_rate(self) -> float | None:
        """Passed over cases with a result, or ``None`` before any."""
        return self.passed / self.completed if self.completed else None


class _Share(NamedTuple):
    """What one case adds to the figures."""

    status: CaseStatus
    completed: bool
    passed: bool
    tokens: int
    criteria: tuple[tuple[str, bool], ...]
    cost: float | None


def _share(state: CaseState | None) -> _Share | None:
    if state is None:
        return None
    result = state.result
    if result is None and not state.scores:  # most of a big run's cases, most of the time
        return _Share(state.status, False, False, state.tokens, (), None)
    return _Share(
        state.status,
        result is not None,
        bool(result is not None and result.passed),
        state.tokens,
        tuple((c, passed) for c, _, passed in state.scores),
        result.cost_usd if result is not None else None,
    )


class RunCounter:
    """A run's :class:`RunTally`, kept up to date from the cases that changed: the run view
    repaints several times a second, and counting 10,000 cases each time would cost more
    than the repaint itself."""

    def __init__(self) -> None:
        self._run: LiveRun | None = None
        self._shares: dict[str, _Share] = {}
        self._counts = dict.fromkeys(CaseStatus, 0)
        self._sums = [0, 0, 0]  # completed, passed, tokens
        self._criteria: dict[str, list[int]] = {}  # criterion -> [passed, scored]
        self._cost = 0.0
        self._priced = 0

    def tally(self, run: LiveRun, changed: Collection[str] | None = None) -> RunTally:
        """The figures of ``run``; ``changed``: the keys of the cases changed since the last
        tally of this run (``None``: count every case; so are many changes, faster)."""
        if run is not self._run or changed is None or 4 * len(changed) > len(run.cases):
            self._recount(run)
        else:
            for key in changed:
                self._replace(key, _share(run.cases.get(key)))
        counts = {str(status): count for status, count in self._counts.items()}
        completed, passed, tokens = self._sums
        criteria = {name: (p, n) for name, (p, n) in self._criteria.items() if n}
        cost = self._cost if self._priced else None
        return RunTally(counts, len(run.cases), completed, passed, tokens, criteria, cost)

    def _recount(self, run: LiveRun) -> None:
        self._run = run
        self._shares = {}
        self._counts = dict.fromkeys(CaseStatus, 0)
        self._sums = [0, 0, 0]
        self._criteria = {}
        self._cost, self._priced = 0.0, 0
        shares = {key: share for key, state in run.cases.items() if (share := _share(state))}
        self._shares = shares
        # alike cases added at once: 10,000 queued ones are one share ten thousand times
        for share, count in Counter(shares.values()).items():
            self._add(share, count)

    def _replace(self, key: str, new: _Share | None) -> None:
        old = self._shares.pop(key, None)
        if old is not None:
            self._add(old, -1)
        if new is not None:
            self._shares[key] = new
            self._add(new, 1)

    def _add(self, share: _Share, sign: int) -> None:
        sums = self._sums
        self._counts[share.status] += sign
        sums[0] += sign * share.completed
        sums[1] += sign * share.passed
        sums[2] += sign * share.tokens
        for name, passed in share.criteria:
            entry = self._criteria.setdefault(name, [0, 0])
            entry[0] += sign * passed
            entry[1] += sign
        if share.cost is not None:
            self._cost += sign * share.cost
            self._priced += sign


def rate_text(passed: int, total: int) -> str:
    """``75% [41-93]``: a pass rate with its 95% Wilson interval (in percent)."""
    low, high = wilson_interval(passed, total)
    return f"{passed / total:.0%} [{low * 100:.0f}-{high * 100:.0f}]"


def summary_text(run: LiveRun, *, timings: bool = True, tally: RunTally | None = None) -> Text:
    """``3/5 done  running 1  passed 3 ...  pass rate 75% [30-95]  traj 100% [44-100]
    elapsed 12s  0.25 cases/s  left ~8s  tokens 420  cost $0.0123`` (``tally``: the run's
    figures, when counted already). Two spaces part the figures: :class:`RunFigures`
    breaks lines only there."""
    tally = tally or RunTally.of(run)
    counts = tally.counts
    text = Text()
    if run.planned or run.done:
        text.append(f"{tally.completed}/{tally.total}", style="bold")
        text.append(" done  ", style="dim")
    else:
        text.append("starting…  ", style="dim")
    for name, style in COUNT_STYLES:
        if not counts[name] and name not in ("passed", "failed"):
            continue  # what is not there takes no room
        text.append(f"{name} ", style="dim")
        text.append(f"{counts[name]}  ", style=style)
    text.append("pass rate ", style="dim")
    text.append("-" if not tally.completed else rate_text(tally.passed, tally.completed))
    for name, (passed, scored) in tally.criteria.items():
        text.append(f"  {short_name(name)} ", style="dim")
        text.append(rate_text(passed, scored))
    if timings:
        elapsed = run.elapsed()
        text.append("  elapsed ", style="dim")
        text.append(f"{elapsed:.0f}s")
        pace = run_pace(tally, elapsed, running_left(run))
        if pace is not None:
            per_second, left = pace
            text.append(f"  {per_second:.2f}")
            text.append(" cases/s", style="dim")
            if not run.done:
                text.append("  left ", style="dim")
                text.append(f"~{left:.0f}s")
    text.append("  tokens ", style="dim")
    text.append(str(tally.tokens))
    if tally.cost is not None:
        text.append("  cost ", style="dim")
        text.append(format_cost(tally.cost))
    return text


def run_pace(tally: RunTally, elapsed: float, running: float = 0.0) -> tuple[float, float] | None:
    """``(cases per second, seconds left)`` of the cases run now (carried ones are not run),
    once one finished: the cases left at that pace, but never less than ``running``, what
    the cases running now still need (:func:`running_left`)."""
    done_now = tally.completed - tally.counts.get("carried", 0)
    if done_now <= 0 or elapsed <= 0:
        return None
    per_second = done_now / elapsed
    left = tally.total - tally.completed
    return per_second, max(left / per_second, running)


def running_left(run: LiveRun) -> float:
    """Seconds the cases running now still need, the longest of them: each is expected to
    take as long as it took on its last run (:attr:`LiveRun.expected_seconds`), else as long
    as the longest case finished in this run."""
    now = run.clock()
    longest, running = 0.0, []
    for state in run.cases.values():  # one pass: every repaint of a big run makes it
        if state.status == CaseStatus.RUNNING:
            running.append(state)
        elif state.duration is not None and state.status in FINISHED:
            longest = max(longest, state.duration)
    rests = [
        run.expected_seconds.get(state.key, longest) - (state.running_for(now) or 0.0)
        for state in running
    ]
    return max([0.0, *rests])


class RunFigures(Widget):
    """The figures, wrapped between figures to the width (nothing falls off a narrow
    terminal); repaints only when the text changes, and lays the screen out again only
    when it takes another number of lines."""

    DEFAULT_CSS = """
    RunFigures {
        height: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()
        self._lines = 1

    def show(self, text: Text) -> None:
        """Show ``text``, figures parted by two spaces (a no-op when it is what is shown)."""
        if text.plain != self.text.plain or text.spans != self.text.spans:
            self.text = text
            lines = len(packed(text, self.size.width).plain.splitlines())
            self.refresh(layout=lines != self._lines)
            self._lines = lines

    def on_resize(self, event: events.Resize) -> None:
        self._lines = len(packed(self.text, event.size.width).plain.splitlines())

    def render(self) -> Text:
        return packed(self.text, self.size.width)


def packed(text: Text, width: int) -> Text:
    """``text`` in lines of at most ``width`` cells, broken only between figures (where it
    has two spaces), never inside one ("pass rate 75% [41-93]" stays whole)."""
    if width <= 0 or text.cell_len <= width:
        return text
    out = Text()
    line = 0
    for part in text.split(FIGURE_GAP, allow_blank=False):
        size = part.cell_len
        if line and line + len(FIGURE_GAP) + size > width:
            out.append("\n")
            line = 0
        elif line:
            out.append(FIGURE_GAP)
            line += len(FIGURE_GAP)
        out.append_text(part)
        line += size
    return out


class RunProgress(Horizontal):
    """The progress bar and the figures next to it; :meth:`show` refreshes both.

    The bar's total is the run's whole plan from the start (the worker's ``worker_plan``
    line), so its share never goes back as later eval sets begin.
    """

    DEFAULT_CSS = """
    RunProgress {
        height: auto;
        layout: horizontal;
    }
    RunProgress.-narrow {
        layout: vertical;
    }
    RunProgress ProgressBar {
        width: 40;
    }
    RunProgress #run-figures {
        width: 1fr;
    }
    """

    def __init__(self, *, timings: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timings = timings
        self._counter = RunCounter()

    def compose(self) -> ComposeResult:
        yield ProgressBar(total=1, show_eta=False, id="run-bar")
        yield RunFigures(id="run-figures")

    def on_resize(self, event: events.Resize) -> None:
        # Narrow, the figures take a line of their own under the bar.
        self.set_class(event.size.width < NARROW, "-narrow")

    def show(self, run: LiveRun | None, changed: Collection[str] | None = None) -> None:
        """Show ``run`` (or nothing yet); ``changed``: the keys of the cases changed since
        it was last shown, when known (else every case is counted)."""
        bar = self.query_one(ProgressBar)
        figures = self.query_one(RunFigures)
        if run is None:
            bar.update(total=1, progress=0)
            figures.show(Text("no run yet", style="dim"))
            return
        tally = self._counter.tally(run, changed)
        if run.planned or run.done:
            bar.update(total=max(tally.total, 1), progress=tally.completed)
        else:  # the worker has not said yet how many cases run: no share to show
            bar.update(total=None, progress=0)
        figures.show(summary_text(run, timings=self.timings, tally=tally))


__all__ = [
    "RunCounter",
    "RunFigures",
    "RunProgress",
    "RunTally",
    "rate_text",
    "run_pace",
    "running_left",
    "summary_text",
]
