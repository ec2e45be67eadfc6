"""JUnit XML reporter: one test suite per eval set and one test case per eval case, for CI."""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport, EvalSummary
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.casedata import to_text
from tenxeval_tui.evaluation.summary_totals import SummaryTotals

# Characters XML 1.0 forbids (even escaped): C0 controls but tab/newline/CR, lone
# surrogates, U+FFFE and U+FFFF.
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
SYSTEM_OUT_CHARS = 20_000


def xml_safe(text: Any) -> str:
    """``text`` as a string with the characters XML 1.0 cannot carry removed."""
    return _ILLEGAL_XML.sub("", str(text))


def _set(element: ET.Element, **attributes: Any) -> None:
    for key, value in attributes.items():
        element.set(key, xml_safe(value))


def _property(parent: ET.Element, name: str, value: str) -> None:
    """A ``<property>``; ``name`` and ``value`` must already be XML-safe."""
    ET.SubElement(parent, "property", {"name": name, "value": value})


class JUnitXMLReporter(BaseReporter):
    """Writes a report as JUnit XML that CI systems (GitHub Actions, GitLab, Jenkins) read.

    - ``<testsuites>`` holds one ``<testsuite>`` per eval set: a combined report
      (:meth:`EvalReport.combine`) gets one per original set, from each case's
      ``metadata["eval_set_id"]``; suite properties hold the pass rate and each
      criterion's average score, pass rate and threshold.
    - One ``<testcase>`` per case (``name``: the case name or id; ``classname``:
      the eval set id; ``time``: its duration), with its ``eval_id`` and each
      criterion's score as properties (``score.<criterion>``).
    - A failed case has one ``<failure>`` listing every failed criterion with its
      score, threshold and reason; an errored case has one ``<error>`` with the
      error instead (never both).
    - A case run several times (repeats) fails by its pass rule; it carries its
      ``pass_rate``, ``repeats``, ``passed_repeats``, ``flips`` and ``pass_rule`` as
      properties, and its failure message starts with how many runs passed. Its
      suite carries ``repeat_pass_rate``, the Wilson interval of the pass rate
      (``pass_rate_low``, ``pass_rate_high``) and ``flaky_cases``.
    - A case that did not pass also gets ``<system-out>`` with the agent's response
      and tool calls, as far as the ``include_*`` switches allow (cut to 20,000
      characters); passing cases leave it out to keep CI logs short.
    - Characters that XML 1.0 cannot carry are removed from all text.
    """

    extension = ".xml"

    def __init__(
        self,
        suite_name: str | None = None,
        include_actual_response: bool = True,
        include_tool_call_details: bool = True,
        include_details: bool = True,
    ) -> None:
        """``suite_name`` (10xGraph's first parameter) names ``<testsuites>``; by
        default it is the report's eval set name (or id)."""
        self.suite_name = suite_name
        self.include_actual_response = include_actual_response
        self.include_tool_call_details = include_tool_call_details
        self.include_details = include_details

    @classmethod
    def from_config(cls, config: ReporterConfig) -> JUnitXMLReporter:
        """The reporter that ``config``'s ``include_*`` switches describe."""
        return cls(
            include_actual_response=config.include_actual_response,
            include_tool_call_details=config.include_tool_call_details,
            include_details=config.include_details,
        )

    def to_element(self, report: EvalReport) -> ET.Element:
        """The ``<testsuites>`` element of ``report``."""
        groups: dict[str, list[EvalCaseResult]] = {}
        for result in report.results:
            groups.setdefault(result.eval_set_id or report.eval_set_id, []).append(result)
        if not groups:
            groups[report.eval_set_id] = []
        root = self._root(report)
        stamp = _stamp(report)
        for index, (set_id, results) in enumerate(groups.items()):
            summary = report.summary if len(groups) == 1 else EvalSummary.from_results(results)
            suite = self._suite(index, xml_safe(set_id), summary, _thresholds(results), stamp)
            names: dict[str, str] = {}
            suite.extend(self._case(xml_safe(set_id), result, names) for result in results)
            root.append(suite)
        return root

    def render_parts(self, report: EvalReport) -> Iterator[bytes]:
        """:meth:`render` in pieces, a case at a time: the suites' figures from one pass over
        the cases, then each suite's cases from another (a report read from a journal is
        never held whole). The same bytes as :meth:`render`."""
        groups = _group_figures(report)
        root = self._root(report)
        stamp = _stamp(report)
        marks: list[tuple[str, str]] = []
        for index, (set_id, (totals, thresholds)) in enumerate(groups.items()):
            summary = report.summary if len(groups) == 1 else EvalSummary(**totals.fields())
            suite = self._suite(index, xml_safe(set_id), summary, thresholds, stamp)
            if totals.total:
                marks.append((set_id, f"tenxeval-cases-{uuid.uuid4().hex}"))
                ET.SubElement(suite, marks[-1][1])
            root.append(suite)
        ET.indent(root)
        text = ET.tostring(root, encoding="unicode")
        yield b'<?xml version="1.0" encoding="UTF-8"?>\n'
        done = 0
        for set_id, mark in marks:
            found = text.index(f"<{mark} />", done)
            yield text[done:found].encode("utf-8")
            yield from self._case_parts(report, set_id, len(groups) == 1)
            done = text.index("</testsuite>", found)
            done = text.rindex("\n", 0, done)  # the last case's tail ends the suite's line
        yield text[done:].encode("utf-8") + b"\n"

    def _case_parts(self, report: EvalReport, set_id: str, alone: bool) -> Iterator[bytes]:
        """The ``<testcase>`` elements of the suite ``set_id``, indented as in a whole tree,
        each but the last followed by the next one's indentation."""
        names: dict[str, str] = {}
        safe_id = xml_safe(set_id)
        previous: ET.Element | None = None
        for result in report.results:
            if not alone and (result.eval_set_id or report.eval_set_id) != set_id:
                continue
            if previous is not None:
                previous.tail = "\n    "
                yield ET.tostring(previous, encoding="unicode").encode("utf-8")
            previous = self._case(safe_id, result, names)
            _indent(previous, "\n    ")
        if previous is not None:
            yield ET.tostring(previous, encoding="unicode").encode("utf-8")

    def _root(self, report: EvalReport) -> ET.Element:
        """The ``<testsuites>`` element, without its suites."""
        root = ET.Element("testsuites")
        s = report.summary
        _set(
            root,
            name=self.suite_name or report.eval_set_name or report.eval_set_id,
            tests=s.total_cases,
            failures=s.failed_cases,
            errors=s.error_cases,
            time=f"{s.total_duration_seconds:.3f}",
        )
        return root

    def _suite(
        self,
        index: int,
        set_id: str,
        summary: EvalSummary,
        thresholds: dict[str, float],
        stamp: str,
    ) -> ET.Element:
        """A ``<testsuite>`` with its properties, without its cases."""
        suite = ET.Element("testsuite")
        _set(
            suite,
            name=set_id,
            tests=summary.total_cases,
            failures=summary.failed_cases,
            errors=summary.error_cases,
            skipped=0,
            time=f"{summary.total_duration_seconds:.3f}",
            timestamp=stamp,
            id=index,
        )
        props = ET.SubElement(suite, "properties")
        _property(props, "eval_set_id", set_id)
        _property(props, "pass_rate", f"{summary.pass_rate:.4f}")
        if summary.repeat_stats is not None:
            rs = summary.repeat_stats
            _property(props, "repeat_pass_rate", f"{rs.repeat_pass_rate:.4f}")
            _property(props, "pass_rate_low", f"{rs.pass_rate_low:.4f}")
            _property(props, "pass_rate_high", f"{rs.pass_rate_high:.4f}")
            _property(props, "flaky_cases", str(rs.flaky_cases))
        for name, stats in summary.criterion_stats.items():
            safe = xml_safe(name)
            _property(props, f"{safe}.avg_score", f"{float(stats.get('avg_score', 0)):.4f}")
            _property(props, f"{safe}.pass_rate", f"{float(stats.get('pass_rate', 0)):.4f}")
            if name in thresholds:
                _property(props, f"{safe}.threshold", f"{thresholds[name]:.4f}")
        return suite

    def _case(self, set_id: str, result: EvalCaseResult, names: dict[str, str]) -> ET.Element:
        case = ET.Element(
            "testcase",
            {
                "name": xml_safe(result.name or result.eval_id),
                "classname": set_id,
                "time": f"{result.duration_seconds:.3f}",
            },
        )
        props = ET.SubElement(case, "properties")
        _property(props, "eval_id", xml_safe(result.eval_id))
        for cr in result.criterion_results:
            name = names.get(cr.criterion)
            if name is None:
                name = names[cr.criterion] = f"score.{xml_safe(cr.criterion)}"
            _property(props, name, f"{cr.score:.4f}")
        rule = ""
        if result.repeat_stats is not None:
            rs = result.repeat_stats
            _property(props, "pass_rate", f"{rs.pass_rate:.4f}")
            _property(props, "repeats", str(rs.repeats))
            _property(props, "passed_repeats", str(rs.passed_repeats))
            _property(props, "flips", str(rs.flips))
            _property(props, "pass_rule", xml_safe(rs.pass_rule))
            rule = f"{rs.passed_repeats}/{rs.repeats} runs passed (pass rule {rs.pass_rule})"
        if result.passed:
            return case
        if result.is_error:
            error = ET.SubElement(
                case,
                "error",
                {"message": xml_safe(_first_line(result.error or "")), "type": "EvalCaseError"},
            )
            error.text = xml_safe(result.error)
        else:
            failed = result.failed_criteria
            parts = [f"{cr.criterion} {cr.score:.2f} < {cr.threshold:.2f}" for cr in failed]
            if rule:
                parts.insert(0, rule)
            message = "; ".join(parts)
            failure = ET.SubElement(
                case,
                "failure",
                {
                    "message": xml_safe(message or "case did not pass"),
                    "type": "EvalCriterionFailure",
                },
            )
            lines = self._failure_lines(failed)
            if rule:
                runs = ", ".join(f"#{r.repeat_index + 1} {r.status}" for r in result.runs)
                lines[:0] = [rule, f"runs: {runs}"]
            failure.text = xml_safe("\n".join(lines))
        out = self._system_out(result)
        if out:
            ET.SubElement(case, "system-out").text = xml_safe(out)
        return case

    def _failure_lines(self, failed: list[Any]) -> list[str]:
        lines = []
        for cr in failed:
            lines.append(f"{cr.criterion}: score {cr.score:.4f}, threshold {cr.threshold:.4f}")
            if cr.error:
                lines.append(f"  error: {cr.error}")
            if self.include_details and cr.reason:
                lines.append(f"  reason: {cr.reason}")
        return lines

    def _system_out(self, result: EvalCaseResult) -> str:
        parts = []
        if self.include_actual_response and result.actual_response:
            parts.append(f"response: {result.actual_response}")
        if result.actual_tool_calls:
            if self.include_tool_call_details:
                calls = [f"{c.name}({to_text(c.args)})" for c in result.actual_tool_calls]
            else:
                calls = [c.name for c in result.actual_tool_calls]
            parts.append("tool calls: " + ", ".join(calls))
        text = "\n".join(parts)
        return text if len(text) <= SYSTEM_OUT_CHARS else text[:SYSTEM_OUT_CHARS] + "…"

    def render(self, report: EvalReport) -> str:
        """The report as JUnit XML text (with an XML declaration)."""
        root = self.to_element(report)
        ET.indent(root)
        # ElementTree writes "unicode" quicker than "utf-8"; the declaration says UTF-8.
        body = ET.tostring(root, encoding="unicode")
        return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'

    def to_xml(self, report: EvalReport) -> str:
        """Same as :meth:`render` (10xGraph's name)."""
        return self.render(report)


def _thresholds(results: Iterable[EvalCaseResult]) -> dict[str, float]:
    """Each criterion's threshold (the same for every case of a run; the first one seen)."""
    found: dict[str, float] = {}
    for result in results:
        _add_thresholds(found, result)
    return found


def _add_thresholds(found: dict[str, float], result: EvalCaseResult) -> None:
    for cr in result.criterion_results:
        found.setdefault(cr.criterion, cr.threshold)


def _group_figures(report: EvalReport) -> dict[str, tuple[SummaryTotals, dict[str, float]]]:
    """Each suite's (eval set's) running totals (no per-case tokens: a suite does not show
    them) and thresholds, in one pass over the cases; one empty suite for a report of none."""
    groups: dict[str, tuple[SummaryTotals, dict[str, float]]] = {}
    for result in report.results:
        key = result.eval_set_id or report.eval_set_id
        if key not in groups:
            groups[key] = (SummaryTotals(per_case=False), {})
        totals, thresholds = groups[key]
        totals.add(result)
        _add_thresholds(thresholds, result)
    return groups or {report.eval_set_id: (SummaryTotals(), {})}


def _indent(element: ET.Element, prefix: str) -> None:
    """``ET.indent`` of ``element`` at the depth whose line starts ``prefix`` (a newline
    and its indentation), as a plain function: ``ET.indent``'s nested one makes a
    reference cycle a call, a case's worth of garbage kept while a report is written with
    the collector paused."""
    if not len(element):
        return
    inner = prefix + "  "
    if not element.text or not element.text.strip():
        element.text = inner
    for child in element:
        _indent(child, inner)
        if not child.tail or not child.tail.strip():
            child.tail = inner
    if not (child.tail or "").strip():
        child.tail = prefix


def _stamp(report: EvalReport) -> str:
    return datetime.fromtimestamp(report.timestamp).strftime("%Y-%m-%dT%H:%M:%S")


def _first_line(text: str, limit: int = 500) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "error"
    return line if len(line) <= limit else line[: limit - 1] + "…"
