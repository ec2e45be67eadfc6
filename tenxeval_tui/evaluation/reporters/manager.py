"""Run every enabled reporter over a report: console, JSON, HTML, JUnit XML, CSV, JSON Lines."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.naming import report_stem, reserve_paths

logger = logging.getLogger("tenxeval_tui.evaluation.reporters")

JSON_SUFFIX = ".json"
HTML_SUFFIX = ".html"
JUNIT_SUFFIX = "_junit.xml"
CSV_SUFFIX = ".csv"
JSONL_SUFFIX = ".jsonl"


@dataclass
class ReporterOutput:
    """What :meth:`ReporterManager.run_all` produced.

    ``errors`` holds ``(reporter_name, message)`` for every reporter that raised.
    """

    json_path: str | None = None
    html_path: str | None = None
    junit_path: str | None = None
    csv_path: str | None = None
    jsonl_path: str | None = None
    console_output: bool = False
    errors: list[tuple[str, str]] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        """Whether any reporter failed."""
        return bool(self.errors)

    @property
    def generated_files(self) -> list[str]:
        """Paths of the files written, in the order JSON, HTML, JUnit, CSV, JSON Lines."""
        paths = (self.json_path, self.html_path, self.junit_path, self.csv_path, self.jsonl_path)
        return [p for p in paths if p]


class ReporterManager:
    """Runs the reporters a :class:`ReporterConfig` enables.

    One reporter failing never stops the others: its error is logged on the
    ``tenxeval_tui.evaluation.reporters`` logger and recorded in
    ``ReporterOutput.errors``, and a file it left unfinished is removed.
    """

    def __init__(self, config: ReporterConfig | None = None) -> None:
        self.config = config or ReporterConfig()

    def run_all(self, report: EvalReport, output_dir: str | Path | None = None) -> ReporterOutput:
        """Produce every enabled report for ``report``.

        Files go to ``output_dir`` (default: ``config.output_dir``; a relative path
        is taken from the current working directory; the folder is created) and are
        named ``{eval_set_id}_{YYYYmmdd_HHMMSS}.json`` / ``.html`` / ``_junit.xml`` /
        ``.csv`` / ``.jsonl``,
        or ``{eval_set_id}.json``... when ``timestamp_files`` is off (then each run
        replaces the previous files). With timestamps, a second run in the same
        second gets ``..._2`` rather than overwriting the first. Returns an empty
        :class:`ReporterOutput` when ``config.enabled`` is False.
        """
        output = ReporterOutput()
        config = self.config
        if not config.enabled:
            logger.debug("reporters disabled; nothing written")
            return output

        if config.console:
            output.console_output = self._guarded(
                output, "ConsoleReporter", lambda: self.console_reporter().generate(report)
            )

        plan = [
            (suffix, make, attr)
            for enabled, suffix, make, attr in (
                (config.json_report, JSON_SUFFIX, self.json_reporter, "json_path"),
                (config.html, HTML_SUFFIX, self.html_reporter, "html_path"),
                (config.junit_xml, JUNIT_SUFFIX, self.junit_reporter, "junit_path"),
                (config.csv, CSV_SUFFIX, self.csv_reporter, "csv_path"),
                (config.jsonl, JSONL_SUFFIX, self.jsonl_reporter, "jsonl_path"),
            )
            if enabled
        ]
        if not plan:
            return output
        paths = self._claim_paths(report, output_dir, [suffix for suffix, _, _ in plan], output)
        if paths is None:
            return output
        for suffix, make, attr in plan:
            path = paths[suffix]
            if self._guarded(output, _NAMES[suffix], partial(_save, make, report, path)):
                setattr(output, attr, str(path))
            elif config.timestamp_files:
                path.unlink(missing_ok=True)  # the empty placeholder claimed for this run
        if output.generated_files:
            logger.info("reports written: %s", ", ".join(output.generated_files))
        return output

    # The reporters, built from the config (override to plug in your own).

    def console_reporter(self) -> BaseReporter:
        """The console reporter for this config."""
        from tenxeval_tui.evaluation.reporters.console import ConsoleReporter

        return ConsoleReporter(
            verbose=self.config.verbose,
            include_trajectory=self.config.include_trajectory,
            include_actual_response=self.config.include_actual_response,
        )

    def json_reporter(self) -> BaseReporter:
        """The JSON reporter for this config."""
        from tenxeval_tui.evaluation.reporters.json import JSONReporter

        return JSONReporter.from_config(self.config)

    def html_reporter(self) -> BaseReporter:
        """The HTML reporter for this config."""
        from tenxeval_tui.evaluation.reporters.html import HTMLReporter

        return HTMLReporter.from_config(self.config)

    def junit_reporter(self) -> BaseReporter:
        """The JUnit XML reporter for this config."""
        from tenxeval_tui.evaluation.reporters.junit import JUnitXMLReporter

        return JUnitXMLReporter.from_config(self.config)

    def csv_reporter(self) -> BaseReporter:
        """The CSV reporter for this config."""
        from tenxeval_tui.evaluation.reporters.csv import CsvReporter

        return CsvReporter.from_config(self.config)

    def jsonl_reporter(self) -> BaseReporter:
        """The JSON Lines reporter for this config."""
        from tenxeval_tui.evaluation.reporters.jsonl import JsonlReporter

        return JsonlReporter.from_config(self.config)

    def _claim_paths(
        self,
        report: EvalReport,
        output_dir: str | Path | None,
        suffixes: list[str],
        output: ReporterOutput,
    ) -> dict[str, Path] | None:
        folder = Path(output_dir if output_dir is not None else self.config.output_dir)
        if not folder.is_absolute():
            folder = Path.cwd() / folder
        stem = report_stem(report.eval_set_id, report.timestamp, self.config.timestamp_files)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if self.config.timestamp_files:
                return reserve_paths(folder, stem, suffixes)
            return {suffix: folder.resolve() / f"{stem}{suffix}" for suffix in suffixes}
        except OSError as exc:
            logger.error("cannot create report files in %s: %s", folder, exc)
            output.errors.append(("ReporterManager", f"cannot write to {folder}: {exc}"))
            return None

    @staticmethod
    def _guarded(output: ReporterOutput, name: str, action: Callable[[], object]) -> bool:
        """Run ``action``; on failure log it and record it under ``name``."""
        try:
            action()
        except Exception as exc:
            logger.exception("%s failed", name)
            output.errors.append((name, f"{type(exc).__name__}: {exc}"))
            return False
        return True


def _save(make: Callable[[], BaseReporter], report: EvalReport, path: Path) -> None:
    make().save(report, path)


_NAMES = {
    JSON_SUFFIX: "JSONReporter",
    HTML_SUFFIX: "HTMLReporter",
    JUNIT_SUFFIX: "JUnitXMLReporter",
    CSV_SUFFIX: "CsvReporter",
    JSONL_SUFFIX: "JsonlReporter",
}
