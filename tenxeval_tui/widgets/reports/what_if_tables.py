"""The tables of the threshold what-if: the criteria being tried, and the cases that moved."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tenxeval_tui.browsing.what_if import CriterionSetting, VerdictChange
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
from tenxeval_tui.widgets.reports.status_text import status_text

SETTING_COLUMNS = (
    Column("Criterion", 34),
    Column("Threshold", 14),
    Column("On", 3),
    Column("Scored by"),
)


def setting_cells(setting: CriterionSetting) -> Sequence[Text]:
    """A criterion's cells: name, threshold (report's → tried), on/off, how it is scored."""
    moved = abs(setting.new_threshold - setting.threshold) > 1e-9
    threshold = Text(f"{setting.threshold:.2f}")
    if moved:
        threshold.append(f" → {setting.new_threshold:.2f}", style="bold cyan")
    return (
        Text(inert(setting.name), style="" if setting.enabled else "dim strike"),
        threshold,
        Text("on", style="green") if setting.enabled else Text("off", style="bold red"),
        Text(
            "scored again" if setting.rescored else "stored score (judged or not known here)",
            style="dim",
        ),
    )


class CriterionSettingsTable(VirtualTable):
    """One row per criterion of the report; the what-if screen's keys change them."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(SETTING_COLUMNS, setting_cells, id=id)


CHANGE_COLUMNS = (Column("Case", 24), Column("Before", 6), Column("After", 6), Column("Name"))


def change_cells(change: VerdictChange) -> Sequence[Text]:
    """A case whose verdict moved: id, status before and after, name."""
    return (
        Text(inert(change.eval_id)),
        status_text(change.before),
        status_text(change.after),
        Text(inert(change.name)),
    )


class VerdictChangeTable(VirtualTable):
    """The cases whose verdict the thresholds tried change."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(CHANGE_COLUMNS, change_cells, id=id)
