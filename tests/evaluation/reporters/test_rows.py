"""CSV and JSON Lines reports (one row per case and criterion), and writing by file ending."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import (
    CsvReporter,
    EvalReport,
    JsonlReporter,
    ReporterConfig,
    ReporterManager,
    write_report,
)
from tenxeval_tui.evaluation.reporters.rows import CASE_COLUMNS, CRITERION_COLUMNS

from .reports import mixed_report, weather_case

# mixed_report: three scored cases with two criteria each, one errored case with none.
ROWS = 3 * 2 + 1


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def jsonl_rows(text: str) -> list[dict[str, object]]:
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_csv_has_a_row_per_case_and_criterion_with_the_case_beside_it() -> None:
    rows = csv_rows(CsvReporter().render(mixed_report()))
    assert len(rows) == ROWS
    assert list(rows[0]) == [*CASE_COLUMNS, *CRITERION_COLUMNS, "reason", "actual_response"]
    tokyo = [r for r in rows if r["eval_id"] == "tokyo"]
    assert [r["criterion"] for r in tokyo] == ["tool_trajectory_avg_score", "rouge_match"]
    rouge = tokyo[1]
    assert (rouge["status"], rouge["score"], rouge["threshold"], rouge["passed"]) == (
        "failed",
        "0.2",
        "0.5",
        "false",
    )
    assert rouge["reason"] == "The answer names the wrong city."
    assert rouge["actual_response"] == "The weather in Osaka is rainy."
    assert (rouge["eval_set_id"], rouge["name"], rouge["total_tokens"]) == (
        "weather-agent",
        "Tokyo weather",
        "52",
    )
    # The errored case is there once, its criterion cells empty.
    (broken,) = [r for r in rows if r["eval_id"] == "broken"]
    assert broken["status"] == "error"
    assert broken["case_error"] == "TimeoutError: case took longer than 30s"
    assert broken["criterion"] == broken["score"] == broken["passed"] == ""


def test_jsonl_has_the_same_rows_with_json_types() -> None:
    report = mixed_report()
    rows = jsonl_rows(JsonlReporter().render(report))
    assert len(rows) == ROWS
    assert [(r["eval_id"], r["criterion"]) for r in rows] == [
        (r["eval_id"], r["criterion"] or None) for r in csv_rows(CsvReporter().render(report))
    ]
    rouge = next(r for r in rows if r["eval_id"] == "paris" and r["criterion"] == "rouge_match")
    assert rouge["score"] == 0.8 and rouge["passed"] is True and rouge["case_error"] is None
    broken = next(r for r in rows if r["eval_id"] == "broken")
    assert broken["criterion"] is None and broken["score"] is None


HOSTILE = {
    '=HYPERLINK("http://evil.example","x")': '\'=HYPERLINK("http://evil.example","x")',
    "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0",
    "-2+3": "'-2+3",
    "@SUM(A1:A9)": "'@SUM(A1:A9)",
    "\t=1+1": "'\t=1+1",
    "\r=1+1": "'\r=1+1",
    "plain = text": "plain = text",
}


@pytest.mark.parametrize(("text", "written"), HOSTILE.items())
def test_csv_cells_that_would_start_a_formula_get_an_apostrophe(text: str, written: str) -> None:
    case = weather_case("c1", response=text, reason=text)
    case.name = text
    report = EvalReport.create("hostile", [case])
    rows = csv_rows(CsvReporter().render(report))
    for row in rows:
        assert row["actual_response"] == row["name"] == written
        assert row["reason"] in (written, "")  # the trajectory criterion gives no reason
    # Numbers are ours: written as they are.
    assert [row["score"] for row in rows] == ["1.0", "0.9"]
    # Without the guard (data tools) and in JSON Lines, the text is as the agent wrote it.
    raw = csv_rows(CsvReporter(escape_formulas=False).render(report))
    assert raw[0]["actual_response"] == text
    assert jsonl_rows(JsonlReporter().render(report))[0]["actual_response"] == text


def test_include_switches_leave_columns_and_text_out() -> None:
    config = ReporterConfig(include_details=False, include_actual_response=False)
    report = mixed_report()
    for reporter in (CsvReporter.from_config(config), JsonlReporter.from_config(config)):
        text = reporter.render(report)
        assert "Osaka" not in text and "wrong city" not in text
    header = CsvReporter.from_config(config).render(report).splitlines()[0].split(",")
    assert header == [*CASE_COLUMNS, *CRITERION_COLUMNS]


def test_a_lone_surrogate_is_written_as_a_replacement_character() -> None:
    report = EvalReport.create("s", [weather_case("c1", response="bad \ud83d here")])
    for reporter in (CsvReporter(), JsonlReporter()):
        data = reporter.render_bytes(report).decode("utf-8")
        assert "bad \ufffd here" in data or "bad \\ufffd here" in data


def test_manager_writes_csv_and_jsonl_only_when_asked(tmp_path: Path) -> None:
    report = mixed_report()
    default = ReporterManager(ReporterConfig(output_dir=str(tmp_path / "a"), console=False))
    out = default.run_all(report)
    assert (out.csv_path, out.jsonl_path) == (None, None)
    assert sorted(Path(p).suffix for p in out.generated_files) == [".html", ".json"]
    config = ReporterConfig(output_dir=str(tmp_path / "b"), console=False, csv=True, jsonl=True)
    out = ReporterManager(config).run_all(report)
    assert out.csv_path and out.jsonl_path
    assert out.generated_files == [out.json_path, out.html_path, out.csv_path, out.jsonl_path]
    assert Path(out.csv_path).stem == Path(out.json_path).stem == Path(out.jsonl_path).stem
    assert len(csv_rows(Path(out.csv_path).read_text(encoding="utf-8"))) == ROWS
    assert len(jsonl_rows(Path(out.jsonl_path).read_text(encoding="utf-8"))) == ROWS


def test_write_report_picks_the_format_from_the_file_ending(tmp_path: Path) -> None:
    report = mixed_report()
    json_path = write_report(report, tmp_path / "deep" / "r.json")
    assert EvalReport.from_file(json_path).model_dump() == report.model_dump()
    assert len(jsonl_rows(write_report(report, tmp_path / "r.jsonl").read_text())) == ROWS
    csv_text = write_report(report, tmp_path / "R.CSV").read_text(encoding="utf-8")
    assert len(csv_rows(csv_text)) == ROWS
    page = write_report(report, tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "weather-agent" in page
    root = ET.parse(write_report(report, tmp_path / "r.xml")).getroot()
    assert root.tag == "testsuites" and len(list(root.iter("testcase"))) == 4


def test_write_report_honours_the_include_switches(tmp_path: Path) -> None:
    config = ReporterConfig(include_actual_response=False)
    for name in ("r.json", "r.csv", "r.jsonl", "r.html"):
        text = write_report(mixed_report(), tmp_path / name, config).read_text(encoding="utf-8")
        assert "Osaka" not in text, name


@pytest.mark.parametrize("name", ["report.txt", "report", "report.json.bak"])
def test_an_unknown_ending_is_refused_and_nothing_is_written(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match=r"names no report format \(known: .json, .jsonl"):
        write_report(mixed_report(), tmp_path / name)
    assert list(tmp_path.iterdir()) == []
