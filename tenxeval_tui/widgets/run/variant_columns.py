"""The variants of a run side by side, live: one row per case, one column per variant."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.variant_live import VariantRow

STYLES = {"pass": "green", "FAIL": "bold red", "ERROR": "bold yellow", "running": "cyan"}


def mark_text(mark: str) -> Text:
    """A variant's mark for a case, coloured by what it says."""
    return Text(mark, style=STYLES.get(mark.split()[0], "dim"))


class VariantColumns(DataTable[Text]):
    """Cases x variants, updated in place as the variants' runs go."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.variants: list[str] = []

    def start(self, variants: list[str]) -> None:
        """Empty, with a column per variant."""
        self.clear(columns=True)
        self.variants = list(variants)
        self.add_column("case", key="case")
        for name in variants:
            self.add_column(inert(name), key=f"v:{name}")

    def show(self, rows: list[VariantRow]) -> None:
        """Every row added or brought up to date."""
        for row in rows:
            if row.key not in self.rows:
                cells = [Text(inert(row.label)), *(mark_text(row.marks[n]) for n in self.variants)]
                self.add_row(*cells, key=row.key)
                continue
            for name in self.variants:
                self.update_cell(row.key, f"v:{name}", mark_text(row.marks[name]))

    def marks(self, key: str) -> dict[str, str]:
        """The marks shown for the case ``key`` (for tests and the screen)."""
        cells = self.get_row(key)
        return {name: str(cell) for name, cell in zip(self.variants, cells[1:], strict=True)}


__all__ = ["VariantColumns", "mark_text"]
