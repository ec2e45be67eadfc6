"""JSON Lines reporter: one JSON object per case and criterion, for data tools."""

from __future__ import annotations

from collections.abc import Iterator

import pydantic_core

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.files.fileio import without_surrogates
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions
from tenxeval_tui.evaluation.reporters.rows import report_rows


class JsonlReporter(BaseReporter):
    """Writes a report as JSON Lines: the rows of the CSV report, one object a line.

    Each line has the same keys as the CSV report's columns, with JSON's types: scores
    and tokens are numbers, ``passed`` a boolean, a missing value ``null``. Reads
    straight into pandas (``read_json(path, lines=True)``), DuckDB or ``jq``. Text is
    written as it is (JSON needs no formula guard).
    """

    extension = ".jsonl"

    def __init__(self, include_details: bool = True, include_actual_response: bool = True) -> None:
        self.options = ViewOptions(
            include_details=include_details, include_actual_response=include_actual_response
        )

    @classmethod
    def from_config(cls, config: ReporterConfig) -> JsonlReporter:
        """The reporter that ``config``'s ``include_details`` and ``include_actual_response``
        switches describe."""
        return cls(
            include_details=config.include_details,
            include_actual_response=config.include_actual_response,
        )

    def render(self, report: EvalReport) -> str:
        """The report as JSON Lines text."""
        return self.render_bytes(report).decode("utf-8")

    def render_bytes(self, report: EvalReport) -> bytes:
        """The report as UTF-8 JSON Lines (a lone surrogate from the agent becomes U+FFFD)."""
        return b"".join(self.render_parts(report))

    def render_parts(self, report: EvalReport) -> Iterator[bytes]:
        """:meth:`render_bytes` a line at a time, the cases read as they come."""
        for row in report_rows(report, self.options):
            try:
                yield pydantic_core.to_json(row) + b"\n"
            except pydantic_core.PydanticSerializationError:
                yield pydantic_core.to_json(without_surrogates(row)) + b"\n"
