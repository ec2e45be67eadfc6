"""A run at a glance: progress bar, case counts, pass rate, elapsed time, tokens."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import ProgressBar

from tenxeval_tui.evaluation.cost import format_cost
from tenxeval_tui.runs.live_run import CaseState, CaseStatus, LiveRun

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
    ``counts()``, ``completed``, ``pass_rate`` and ``tokens`` say, at once."""

    counts: dict[str, int]
    total: int
    completed: int
    passed: int
    tokens: int

    @classmethod
    def of(cls, run: LiveRun) -> RunTally:
        """Count ``run``'s cases."""
        found = dict.fromkeys(CaseStatus, 0)
        completed = passed = tokens = 0
        for state in run.cases.values():
            found[state.status] += 1
            tokens += state.tokens
            if state.result is not None:
                completed += 1
                passed += state.result.passed
        counts = {str(status): count for status, count in found.items()}
        return cls(counts, len(run.cases), completed, passed, tokens)

    @property
    def pass_rate(self) -> float | None:
        """Passed over cases with a result, or ``None`` before any."""
        return self.passed / self.completed if self.completed else None


_Share = tuple[CaseStatus, int, int, int]
"""What one case adds to the figures: its status, completed, passed, tokens."""


def _share(state: CaseState | None) -> _Share | None:
    if state is None:
        return None
    result = state.result
    return (
        state.status,
        result is not None,
        bool(result is not None and result.passed),
        state.tokens,
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
        return RunTally(counts, len(run.cases), completed, passed, tokens)

    def _recount(self, run: LiveRun) -> None:
        self._run = run
        shares: dict[str, _Share] = {}
        counts = dict.fromkeys(CaseStatus, 0)
        completed = passed = tokens = 0
        for key, state in run.cases.items():
            result = state.result
            share = (
                state.status,
                result is not None,
                result is not None and result.passed,
                state.tokens,
            )
            shares[key] = share
            counts[state.status] += 1
            completed += share[1]
            passed += share[2]
            tokens += state.tokens
        self._shares, self._counts, self._sums = shares, counts, [completed, passed, tokens]

    def _replace(self, key: str, new: _Share | None) -> None:
        sums = self._sums
        old = self._shares.pop(key, None)
        if old is not None:
            self._counts[old[0]] -= 1
            sums[0] -= old[1]
            sums[1] -= old[2]
            sums[2] -= old[3]
        if new is not None:
            self._shares[key] = new
            self._counts[new[0]] += 1
            sums[0] += new[1]
            sums[1] += new[2]
            sums[2] += new[3]


def summary_text(run: LiveRun, *, timings: bool = True, tally: RunTally | None = None) -> Text:
    """``3/5 done  queued 0  running 1  passed 3 ...  pass rate 75%  elapsed 12s  tokens 420``
    (``tally``: the run's figures, when counted already)."""
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
            continue  # what is not there takes no room (the line must fit 80 columns)
        text.append(f"{name} ", style="dim")
        text.append(f"{counts[name]}  ", style=style)
    rate = tally.pass_rate
    text.append("pass rate ", style="dim")
    text.append("-" if rate is None else f"{rate:.0%}")
    if timings:
        text.append("  elapsed ", style="dim")
        text.append(f"{run.elapsed():.0f}s")
    text.append("  tokens ", style="dim")
    text.append(str(tally.tokens))
    if run.cost_usd is not None:  # only with a price table (see evaluation/cost.py)
        text.append("  cost ", style="dim")
        text.append(format_cost(run.cost_usd))
    return text


class RunFigures(Widget):
    """One line of figures; repaints without a new layout, and only when the text changes."""

    DEFAULT_CSS = """
    RunFigures {
        height: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()

    def show(self, text: Text) -> None:
        """Show ``text`` (a no-op when it is what is shown)."""
        if text.plain != self.text.plain or text.spans != self.text.spans:
            self.text = text
            self.refresh()

    def render(self) -> Text:
        return self.text


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


__all__ = ["RunCounter", "RunFigures", "RunProgress", "RunTally", "summary_text"]
