"""The cases of an eval set over its runs: flips, pass rate, trend and each run's outcome."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tenxeval_tui.browsing.flaky_cases import FlakyCase
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
from tenxeval_tui.widgets.reports.status_text import delta_text

OUTCOMES_SHOWN = 20
"""Runs whose outcome the history cell shows (the latest ones)."""

FLAKY_COLUMNS = (
    Column("Flips", 5),
    Column("Flip rate", 9),
    Column("In runs", 7),
    Column("Pass rate", 15),
    Column("Trend", 11),
    Column("History (old → new)", OUTCOMES_SHOWN),
    Column("Case", 24),
    Column("Name"),
)


def outcomes_text(outcomes: Sequence[bool]) -> Text:
    """``✓✓✗✓``: each run's outcome, oldest first (only the last ones when many)."""
    text = Text()
    for passed in outcomes[-OUTCOMES_SHOWN:]:
        text.append("✓" if passed else "✗", style="green" if passed else "red")
    return text


def flaky_cells(case: FlakyCase) -> Sequence[Text]:
    """The cells of one case's row."""
    h = case.history
    rate_style = "green" if h.passes == h.total else ("red" if not h.passes else "yellow")
    return (
        Text(str(h.flips), style="bold yellow" if h.flips else "dim"),
        Text(f"{h.flip_rate:.0%}", style="" if h.flips else "dim"),
        Text(str(case.repeat_flips), style="yellow" if case.repeat_flips else "dim"),
        Text(f"{h.passes}/{h.total} {h.pass_rate:.0%}", style=rate_style),
        delta_text(h.trend, points=True) if h.runs > 1 else Text("-", style="dim"),
        outcomes_text(h.outcomes),
        Text(inert(h.eval_id)),
        Text(inert(h.name)),
    )


class FlakyTable(VirtualTable):
    """One row per case: flips between runs and flip rate, flips between repeats within
    runs, pass rate over every run and repeat, trend, and the outcome of each run."""

    DEFAULT_CSS = """
    FlakyTable {
        background: $surface;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(FLAKY_COLUMNS, flaky_cells, id=id)
