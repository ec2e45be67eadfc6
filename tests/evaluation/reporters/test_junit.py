"""JUnitXMLReporter: schema-valid, readable by junitparser, one suite per eval set."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from junitparser import Error, Failure, JUnitXml, Properties

from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalReport,
    JUnitXMLReporter,
    ReporterConfig,
    ReporterManager,
)

from .reports import XSS_RESPONSE, mixed_report, weather_case

SCHEMA = xmlschema.XMLSchema(Path(__file__).with_name("junit.xsd"))


def write(report: EvalReport, tmp_path: Path, **kwargs: bool) -> Path:
    path = JUnitXMLReporter(**kwargs).save(report, tmp_path / "r_junit.xml")
    SCHEMA.validate(str(path))
    return path


def case_properties(case) -> dict[str, str]:
    props = case.child(Properties)
    return {p.name: p.value for p in props} if props is not None else {}


def test_schema_rejects_a_wrong_file(tmp_path):
    """The schema really checks: a testcase without a name is refused."""
    bad = tmp_path / "bad.xml"
    bad.write_text('<testsuites><testsuite name="x" tests="1"><testcase/></testsuite></testsuites>')
    assert not SCHEMA.is_valid(str(bad))


def test_valid_and_readable_with_junitparser(tmp_path):
    path = write(mixed_report(), tmp_path)
    xml = JUnitXml.fromfile(str(path))
    suites = list(xml)
    assert [s.name for s in suites] == ["weather-agent"]
    suite = suites[0]
    assert (suite.tests, suite.failures, suite.errors) == (4, 1, 1)
    cases = {c.name: c for c in suite}
    assert set(cases) == {"London weather", "Paris weather", "Tokyo weather", "Oslo weather"}
    assert cases["London weather"].is_passed
    assert cases["London weather"].time == pytest.approx(1.25)
    assert cases["London weather"].classname == "weather-agent"


def test_failure_lists_failed_criteria_with_scores_and_thresholds(tmp_path):
    suite = next(iter(JUnitXml.fromfile(str(write(mixed_report(), tmp_path)))))
    tokyo = next(c for c in suite if c.name == "Tokyo weather")
    results = tokyo.result
    assert len(results) == 1 and isinstance(results[0], Failure)
    assert results[0].message == "rouge_match 0.20 < 0.50"
    assert "rouge_match: score 0.2000, threshold 0.5000" in results[0].text
    assert "reason: The answer names the wrong city." in results[0].text
    assert "tool_trajectory_avg_score" not in results[0].message


def test_errored_case_has_an_error_and_never_a_failure(tmp_path):
    report = mixed_report()
    # an errored case whose criteria also failed still gets only <error>
    broken = report.results[3]
    broken.criterion_results = [CriterionResult.success("rouge_match", 0.0, 0.5)]
    report = EvalReport.create(report.eval_set_id, report.results, report.eval_set_name)
    suite = next(iter(JUnitXml.fromfile(str(write(report, tmp_path)))))
    oslo = next(c for c in suite if c.name == "Oslo weather")
    assert [type(r) for r in oslo.result] == [Error]
    assert oslo.result[0].message == "TimeoutError: case took longer than 30s"
    for case in suite:
        kinds = {type(r) for r in case.result}
        assert not ({Error, Failure} <= kinds)
        assert len(case.result) <= 1


def test_scores_and_thresholds_are_properties(tmp_path):
    suite = next(iter(JUnitXml.fromfile(str(write(mixed_report(), tmp_path)))))
    tokyo = next(c for c in suite if c.name == "Tokyo weather")
    props = case_properties(tokyo)
    assert props["eval_id"] == "tokyo"
    assert props["score.rouge_match"] == "0.2000"
    assert "threshold.rouge_match" not in props  # thresholds are per suite
    assert props["score.tool_trajectory_avg_score"] == "1.0000"
    suite_props = {p.name: p.value for p in suite.properties()}
    assert suite_props["pass_rate"] == "0.5000"
    assert suite_props["rouge_match.threshold"] == "0.5000"
    assert suite_props["tool_trajectory_avg_score.threshold"] == "1.0000"
    assert float(suite_props["rouge_match.avg_score"]) == pytest.approx((0.9 + 0.8 + 0.2) / 3, 1e-3)


def test_combined_report_has_one_suite_per_original_eval_set(tmp_path):
    a = mixed_report("set-a", "A")
    b = EvalReport.create("set-b", [weather_case("rome", city="Rome", rouge=0.1)], "B")
    combined = EvalReport.combine([a, b])
    xml = JUnitXml.fromfile(str(write(combined, tmp_path)))
    suites = {s.name: s for s in xml}
    assert list(suites) == ["set-a", "set-b"]
    assert (suites["set-a"].tests, suites["set-a"].failures, suites["set-a"].errors) == (4, 1, 1)
    assert (suites["set-b"].tests, suites["set-b"].failures) == (1, 1)
    assert {c.classname for c in suites["set-b"]} == {"set-b"}
    root = ET.parse(write(combined, tmp_path)).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "2", "1")


def test_xml_illegal_characters_are_removed(tmp_path):
    nasty = "bad\x00null\x1bescape\x0bvt\ufffe\ud800 ok & <tag> ]]>"
    case = weather_case("n\x00id", response=nasty, rouge=0.0, reason=nasty, error=None)
    case.name = "name\x01with\x02controls"
    report = EvalReport.create("set\x07", [case, weather_case("e", error=nasty)])
    path = write(report, tmp_path)
    text = path.read_text(encoding="utf-8")
    for ch in ("\x00", "\x1b", "\x0b", "\x01", "\x07", "\ufffe"):
        assert ch not in text
    suite = next(iter(JUnitXml.fromfile(str(path))))
    assert suite.name == "set"
    first, second = list(suite)
    assert first.name == "namewithcontrols"
    assert "reason: badnullescapevt ok & <tag> ]]>" in (first.result[0].text or "")
    assert "badnullescapevt ok & <tag> ]]>" in (first.system_out or "")
    assert second.result[0].text == "badnullescapevt ok & <tag> ]]>"


def test_system_out_follows_the_include_switches(tmp_path):
    report = mixed_report()
    report.results[2].actual_response = XSS_RESPONSE
    full = next(iter(JUnitXml.fromfile(str(write(report, tmp_path)))))
    tokyo = next(c for c in full if c.name == "Tokyo weather")
    assert XSS_RESPONSE in (tokyo.system_out or "")
    assert 'get_weather({"location":"Tokyo"})' in (tokyo.system_out or "")
    lean = next(
        iter(
            JUnitXml.fromfile(
                str(
                    write(
                        report,
                        tmp_path,
                        include_actual_response=False,
                        include_tool_call_details=False,
                        include_details=False,
                    )
                )
            )
        )
    )
    tokyo = next(c for c in lean if c.name == "Tokyo weather")
    assert "Sunny" not in (tokyo.system_out or "")
    assert "tool calls: get_weather" in (tokyo.system_out or "")
    assert "reason:" not in (tokyo.result[0].text or "")


def test_empty_report_is_valid(tmp_path):
    xml = JUnitXml.fromfile(str(write(EvalReport.create("empty", []), tmp_path)))
    assert [(s.name, s.tests) for s in xml] == [("empty", 0)]


def test_manager_writes_junit_file_that_validates(tmp_path):
    config = ReporterConfig(junit_xml=True, console=False, html=False, json_report=False)
    out = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    assert out.junit_path and out.junit_path.endswith("_junit.xml")
    SCHEMA.validate(out.junit_path)
