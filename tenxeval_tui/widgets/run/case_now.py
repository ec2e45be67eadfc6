"""The line over a case's events that says what it is doing now, with its clock."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.runs.case_steps import clock_text
from tenxeval_tui.runs.live_run import CaseState


def now_text(state: CaseState | None, now: float, *, timings: bool = True) -> Text:
    """``▶ calling get_weather(location="Paris") 0:00:04`` for a running case with a step
    in flight, ``▶ running 0:00:12`` for one without a known step; empty otherwise.

    ``timings`` off (stable snapshots) leaves the clocks out.
    """
    if state is None:
        return Text()
    running = state.running_for(now)
    if running is None:
        return Text()
    step = state.current_step
    text = Text("▶ ", style="bold yellow")
    if step is None:
        text.append("running", style="yellow")
    else:
        text.append(step.text(now) if timings else step.label, style="italic yellow")
    if timings:
        text.append(f"  (case {clock_text(running)})", style="dim")
    return text


class CaseNow(Static):
    """What the followed case is doing now; takes no room when it is doing nothing."""

    DEFAULT_CSS = """
    CaseNow {
        height: auto;
        max-height: 3;
        padding: 0 1;
        display: none;
    }
    """

    def show(self, state: CaseState | None, now: float, *, timings: bool = True) -> None:
        """Show what ``state`` does at ``now`` (hidden when it is not running)."""
        text = now_text(state, now, timings=timings)
        self.display = bool(text.plain)
        self.update(text)


__all__ = ["CaseNow", "now_text"]
