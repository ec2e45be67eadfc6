"""A run at a glance: progress bar, case counts, pass rate, elapsed time, tokens."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import ProgressBar

from tenxeval_tui.runs.live_run import LiveRun

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


def summary_text(run: LiveRun, *, timings: bool = True) -> Text:
    """``3/5 done  queued 0  running 1  passed 3 ...  pass rate 75%  elapsed 12s  tokens 420``."""
    counts = run.counts()
    text = Text()
    if run.planned or run.done:
        text.append(f"{run.completed}/{run.total}", style="bold")
        text.append(" done  ", style="dim")
    else:
        text.append("starting…  ", style="dim")
    for name, style in COUNT_STYLES:
        if not counts[name] and name not in ("passed", "failed"):
            continue  # what is not there takes no room (the line must fit 80 columns)
        text.append(f"{name} ", style="dim")
        text.append(f"{counts[name]}  ", style=style)
    rate = run.pass_rate
    text.append("pass rate ", style="dim")
    text.append("-" if rate is None else f"{rate:.0%}")
    if timings:
        text.append("  elapsed ", style="dim")
        text.append(f"{run.elapsed():.0f}s")
    text.append("  tokens ", style="dim")
    text.append(str(run.tokens))
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

    def compose(self) -> ComposeResult:
        yield ProgressBar(total=1, show_eta=False, id="run-bar")
        yield RunFigures(id="run-figures")

    def on_resize(self, event: events.Resize) -> None:
        # Narrow, the figures take a line of their own under the bar.
        self.set_class(event.size.width < NARROW, "-narrow")

    def show(self, run: LiveRun | None) -> None:
        """Show ``run`` (or nothing yet)."""
        bar = self.query_one(ProgressBar)
        figures = self.query_one(RunFigures)
        if run is None:
            bar.update(total=1, progress=0)
            figures.show(Text("no run yet", style="dim"))
            return
        if run.planned or run.done:
            bar.update(total=max(run.total, 1), progress=run.completed)
        else:  # the worker has not said yet how many cases run: no share to show
            bar.update(total=None, progress=0)
        figures.show(summary_text(run, timings=self.timings))


__all__ = ["RunFigures", "RunProgress", "summary_text"]
