"""Listing the reports of an output folder: newest first, broken files listed with their error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.browsing import reports_index
from tenxeval_tui.browsing.reports_index import list_reports, read_entry
from tenxeval_tui.evaluation import EvalReport
from tests.report_samples import BASELINE_TIME, CURRENT_TIME, case, write_reports


def test_lists_newest_first_with_figures(tmp_path: Path) -> None:
    base, cur = write_reports(tmp_path)
    (tmp_path / "cases.evalset.json").write_text("{}", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    entries = list_reports(tmp_path)
    assert [e.path for e in entries] == [cur, base]
    newest = entries[0]
    assert newest.ok and newest.title == "Weather Agent Regression"
    assert (newest.total, newest.passed, newest.failed, newest.errored) == (5, 3, 2, 0)
    assert newest.timestamp == CURRENT_TIME
    assert entries[1].errored == 1 and entries[1].timestamp == BASELINE_TIME
    assert newest.html_path == cur.with_suffix(".html")


def test_broken_file_is_listed_with_file_line_and_column(tmp_path: Path) -> None:
    write_reports(tmp_path)
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "eval_set_id": "x",\n  "results": [,]\n}', encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"eval_set_id": "x", "results": [{"passed": True}]}, indent=2))
    entries = {e.path.name: e for e in list_reports(tmp_path)}
    assert len(entries) == 4
    problem = entries["broken.json"].problem
    assert problem is not None and (problem.line, problem.column) == (3, 15)
    assert problem.path == str(bad)
    missing = entries["wrong.json"].problem
    assert missing is not None and "eval_id" in missing.json_path and missing.line == 4


def test_absent_folder_lists_nothing(tmp_path: Path) -> None:
    assert list_reports(tmp_path / "nope") == []


def _big_report(path: Path, n: int, metadata: dict[str, object] | None = None) -> EvalReport:
    report = EvalReport.create(
        "big", [case(f"c{i}") for i in range(n)], eval_set_name="Big", metadata=metadata
    )
    report.timestamp = 1234.5
    report.to_file(path)
    return report


@pytest.mark.parametrize(
    "metadata",
    [None, {"summary": {"total_cases": 99}}, {"note": '"summary": {"total_cases": 1}'}],
)
def test_big_file_summary_read_without_full_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metadata: dict[str, object] | None
) -> None:
    path = tmp_path / "big.json"
    _big_report(path, 20, metadata)
    monkeypatch.setattr(reports_index, "FULL_LOAD_LIMIT", 1000)

    def no_full_load(cls: object, p: object) -> EvalReport:
        raise AssertionError("full load used")

    monkeypatch.setattr(EvalReport, "from_file", classmethod(no_full_load))
    entry = read_entry(path)
    assert entry.ok and entry.title == "Big" and entry.total == 20 and entry.passed == 20
    assert entry.timestamp == 1234.5


def test_big_file_of_unusual_shape_falls_back_to_full_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = EvalReport.create("odd", [case("a")])
    data = report.model_dump(mode="json")
    # summary before results: the fast path does not apply, the full load does
    path = tmp_path / "odd.json"
    reordered = {"summary": data["summary"], **{k: v for k, v in data.items() if k != "summary"}}
    path.write_text(json.dumps(reordered), encoding="utf-8")
    monkeypatch.setattr(reports_index, "FULL_LOAD_LIMIT", 10)
    entry = read_entry(path)
    assert entry.ok and entry.eval_set_id == "odd" and entry.total == 1


def test_big_truncated_file_reports_the_json_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cut.json"
    _big_report(path, 5)
    path.write_text(path.read_text(encoding="utf-8")[:-200], encoding="utf-8")
    monkeypatch.setattr(reports_index, "FULL_LOAD_LIMIT", 10)
    entry = read_entry(path)
    assert entry.problem is not None and "invalid JSON" in entry.problem.message
    assert entry.problem.line is not None


def test_reports_of_our_reporters_list_with_their_html(tmp_path: Path) -> None:
    from tenxeval_tui.browsing.report_document import ReportDocument
    from tenxeval_tui.evaluation import ReporterConfig
    from tenxeval_tui.evaluation.reporters import ReporterManager
    from tests.report_samples import current_report

    output = ReporterManager(
        ReporterConfig(output_dir=str(tmp_path), console=False, html=True, junit_xml=True)
    ).run_all(current_report())
    assert not output.errors and output.json_path and output.html_path
    [entry] = list_reports(tmp_path)  # the JUnit XML and the HTML are not listed
    assert entry.path == Path(output.json_path) and entry.html_path == Path(output.html_path)
    assert entry.ok and (entry.passed, entry.failed) == (3, 2)
    doc = ReportDocument.open(entry.path)
    assert doc.case(1).eval_id == "paris"


def test_a_folder_listed_again_reads_only_the_reports_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = reports_index
    write_reports(tmp_path)
    known = index.ReportEntries()
    first = index.list_reports(tmp_path, known)
    read: list[str] = []
    real_read = index.read_entry
    monkeypatch.setattr(index, "read_entry", lambda p: read.append(p.name) or real_read(p))
    assert index.list_reports(tmp_path, known) == first  # nothing changed: nothing read
    assert read == []
    changed = first[-1].path
    changed.write_text(changed.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = index.list_reports(tmp_path, known)
    assert read == [changed.name]
    assert [e.path for e in again] == [e.path for e in first]


@pytest.mark.parametrize("limit", [10**9, 10], ids=["full load", "big file"])
def test_a_rescored_report_is_marked_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    monkeypatch.setattr(reports_index, "FULL_LOAD_LIMIT", limit)
    _big_report(tmp_path / "run.json", 3)
    _big_report(tmp_path / "run.rescored.json", 3, {"rescored": {"original_timestamp": 1.0}})
    marked = {e.path.name: e.rescored for e in list_reports(tmp_path)}
    assert marked == {"run.json": False, "run.rescored.json": True}


def test_a_watch_sessions_reports_of_one_eval_set_are_listed_as_one() -> None:
    from tenxeval_tui.browsing.reports_index import ReportEntry, group_watch_sessions

    def entry(name: str, set_id: str, session: str = "") -> ReportEntry:
        return ReportEntry(path=Path(name), eval_set_id=set_id, watch_session=session)

    newest_first = [
        entry("c3", "cities", "s1"),
        entry("m1", "more", "s1"),
        entry("c2", "cities", "s1"),
        entry("plain", "cities"),
        entry("c1", "cities", "s1"),
        entry("o1", "cities", "s0"),
    ]
    grouped = group_watch_sessions(newest_first)
    assert [(e.path.name, e.session_runs) for e in grouped] == [
        ("c3", 3),
        ("m1", 1),
        ("plain", 1),
        ("o1", 1),
    ]
