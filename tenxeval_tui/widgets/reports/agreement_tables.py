"""The tables of the judge-agreement view: each criterion's figures, and the cases of a
report with human labels in place of verdicts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from tenxeval_tui.browsing.labelled_report import LabelledCase
from tenxeval_tui.evaluation.analysis.agreement import MEANINGFUL_PAIRS, AgreementFigures
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import Column, VirtualTable
from tenxeval_tui.widgets.reports.status_text import status_text


@dataclass(frozen=True, slots=True)
class FigureRow:
    """One row: a criterion (or two reviewers on one) and its figures."""

    name: str
    figures: AgreementFigures
    criterion: str
    """The criterion (``case`` for whole-case labels) the figures are of."""
    sides: tuple[str, str] = ("judge", "human")
    """Who gave the first and the second verdict of each pair."""


FIGURE_COLUMNS = (
    Column("Criterion"),
    Column("Pairs", 5),
    Column("Agree", 6),
    Column("Kappa [95% CI]", 19),
    Column("TPR", 6),
    Column("TNR", 6),
)
"""Fits 80 columns; the highlighted row's confusion matrix, and why its figures say
little (too few pairs: the pair count in yellow), show below the table
(:func:`confusion_text`)."""


def rate_text(value: float | None) -> Text:
    """``83.3%``, or a dim ``n/a``."""
    return Text("n/a", style="dim") if value is None else Text(f"{value:.1%}")


def kappa_text(figures: AgreementFigures) -> Text:
    """Kappa and its interval, coloured by the usual reading (≥0.6 green, ≥0.4 yellow)."""
    kappa = figures.kappa
    if kappa is None:
        return Text("undefined", style="bold magenta")
    style = "green" if kappa >= 0.6 else ("yellow" if kappa >= 0.4 else "bold red")
    text = Text(f"{kappa:.2f}", style=style)
    if figures.kappa_low is not None and figures.kappa_high is not None:
        text.append(f" [{figures.kappa_low:.2f}, {figures.kappa_high:.2f}]", style="dim")
    return text


def note_text(figures: AgreementFigures) -> Text:
    """Why the figures say little: too few pairs, or an undefined kappa."""
    if figures.kappa is None and figures.n:
        return Text("one class on both sides: kappa undefined", style="magenta")
    if not figures.meaningful:
        return Text(f"fewer than {MEANINGFUL_PAIRS} pairs: not yet meaningful", style="yellow")
    return Text("")


def figure_cells(row: FigureRow) -> Sequence[Text]:
    """The cells of one criterion's figures."""
    figures = row.figures
    return (
        Text(inert(row.name)),
        Text(str(figures.n), style="" if figures.meaningful else "yellow"),
        rate_text(figures.agreement),
        kappa_text(figures),
        rate_text(figures.tpr),
        rate_text(figures.tnr),
    )


def confusion_text(row: FigureRow) -> Text:
    """The row's confusion matrix as a small grid (the first side down, the second across)."""
    c = row.figures.confusion
    first, second = (inert(side) for side in row.sides)
    width = max(len(first), len(second)) + 6
    text = Text.assemble(
        (inert(row.name), "bold"),
        f": {row.figures.n} pairs\n",
        " " * width,
        (f"{second + ' pass':>12}{second + ' fail':>12}", "dim"),
    )
    for label, passed, failed in (
        (f"{first} pass", c.pass_pass, c.pass_fail),
        (f"{first} fail", c.fail_pass, c.fail_fail),
    ):
        text.append(f"\n{label:<{width}}", style="dim")
        text.append(f"{passed:>12}{failed:>12}")
    note = note_text(row.figures)
    if note.plain:
        text.append("\n")
        text.append_text(note)
    return text


class FigureTable(VirtualTable):
    """Criteria (or pairs of reviewers) with their agreement figures."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(FIGURE_COLUMNS, figure_cells, id=id)


LABELLED_COLUMNS = (
    Column("Judged", 6),
    Column("Labelled", 10),
    Column("Case", 24),
    Column("Name"),
)
HUMAN_MARK = " ✎"
"""After a status a human label decided."""


def labelled_cells(row: LabelledCase) -> Sequence[Text]:
    """A case as judged and as labelled (``✎``: a human label decided it)."""
    labelled = status_text(row.labelled_status)
    if row.by_human:
        labelled.append(HUMAN_MARK, style="bold cyan")
    if row.changed:
        labelled.stylize("reverse")
    return (
        status_text(row.judged_status),
        labelled,
        Text(inert(row.case.eval_id)),
        Text(inert(row.case.name)),
    )


class LabelledCaseTable(VirtualTable):
    """The cases of a report with human labels in place of verdicts where there are."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(LABELLED_COLUMNS, labelled_cells, id=id)


__all__ = [
    "HUMAN_MARK",
    "FigureRow",
    "FigureTable",
    "LabelledCaseTable",
    "confusion_text",
    "figure_cells",
    "kappa_text",
    "labelled_cells",
    "note_text",
    "rate_text",
]
