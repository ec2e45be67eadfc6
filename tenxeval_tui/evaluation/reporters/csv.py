"""CSV reporter: one row per case and criterion, safe to open in a spreadsheet.

Cells hold text from agents, judges and eval sets. A spreadsheet program reads a cell
that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return) as a formula,
so such text could run a formula on the reader's machine ("CSV injection"). Following
OWASP's advice, :class:`CsvReporter` puts an apostrophe (``'``) before such a text cell:
spreadsheets then show the text as it was (the apostrophe is hidden), and a data tool
sees the apostrophe. Numbers, booleans and ids of our own making are never changed; pass
``escape_formulas=False`` for a file read only by data tools (pandas, DuckDB), or use the
JSON Lines report, which needs no such guard.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.files.fileio import without_surrogates
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions
from tenxeval_tui.evaluation.reporters.rows import (
    has_costs,
    has_repeats,
    report_rows,
    row_columns,
)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP's list)."""


def guard_formula(text: str) -> str:
    """``text`` with an apostrophe before it when it would start a spreadsheet formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _cell(value: Any, escape_formulas: bool) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value
    text = without_surrogates(str(value))
    return guard_formula(text) if escape_formulas else text


class CsvReporter(BaseReporter):
    """Writes a report as CSV (RFC 4180, UTF-8, a header row), one row per case and criterion.

    The columns are those of :func:`~.rows.row_columns`: the case (eval set, id, name,
    status, duration, tokens, error), the criterion (name, score, threshold, passed,
    error, judge tokens), the reason when ``include_details``, the agent's reply when
    ``include_actual_response``, the costs when the report has them, and each case's
    repeats, passed repeats and pass rate when some case ran more than once. A case with
    no criterion result gets one row with the criterion cells empty. Booleans are
    ``true``/``false``; a missing value is an empty cell. Text that would start a
    formula gets a leading apostrophe unless ``escape_formulas`` is false (see the
    module's docstring).
    """

    extension = ".csv"

    def __init__(
        self,
        include_details: bool = True,
        include_actual_response: bool = True,
        *,
        escape_formulas: bool = True,
    ) -> None:
        self.options = ViewOptions(
            include_details=include_details, include_actual_response=include_actual_response
        )
        self.escape_formulas = escape_formulas

    @classmethod
    def from_config(cls, config: ReporterConfig) -> CsvReporter:
        """The reporter that ``config``'s ``include_details`` and ``include_actual_response``
        switches describe."""
        return cls(
            include_details=config.include_details,
            include_actual_response=config.include_actual_response,
        )

    def render(self, report: EvalReport) -> str:
        """The report as CSV text (``\\r\\n`` line ends, as RFC 4180 has them)."""
        return "".join(self._chunks(report))

    def render_parts(self, report: EvalReport) -> Iterator[bytes]:
        """:meth:`render` in pieces of a few hundred rows, the cases read as they come."""
        return (chunk.encode("utf-8") for chunk in self._chunks(report))

    def _chunks(self, report: EvalReport) -> Iterator[str]:
        columns = row_columns(
            self.options, with_cost=has_costs(report), with_repeats=has_repeats(report)
        )
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns)
        for count, row in enumerate(report_rows(report, self.options), 1):
            writer.writerow([_cell(row[column], self.escape_formulas) for column in columns])
            if count % ROWS_A_PIECE == 0:
                yield buffer.getvalue()
                buffer.seek(0)
                buffer.truncate()
        yield buffer.getvalue()


ROWS_A_PIECE = 500
"""Rows written to the file at once."""
