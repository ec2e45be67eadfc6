"""Opening a report for browsing: light rows, filters, cases validated on demand, precise errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from tenxeval_tui.browsing.report_document import ReportDocument, StatusFilter, parse_filter
from tenxeval_tui.evaluation import EvalFileError
from tests.report_samples import write_reports


def test_rows_are_built_when_read(tmp_path: Path) -> None:
    _, cur = write_reports(tmp_path)
    doc = ReportDocument.open(cur)
    assert len(doc.rows) == 5
    assert all(r is None for r in doc.rows._rows)  # nothing built before it is read
    paris = doc.rows[1]
    assert (paris.eval_id, paris.status, paris.tags) == ("paris", "failed", ("smoke",))
    assert paris.failed_criteria == (
        "tool_trajectory_avg_score",
        "rouge_match",
        "factual_accuracy_v1",
    )
    assert doc.rows.index(paris) == 1
    assert doc.summary.total_cases == 5 and doc.title == "Weather Agent Regression"


def test_filters_by_status_tag_and_words(tmp_path: Path) -> None:
    base, _ = write_reports(tmp_path)
    doc = ReportDocument.open(base)

    def ids(status: StatusFilter, text: str = "") -> list[str]:
        return [r.eval_id for r in doc.filter_rows(status, text)]

    assert ids(StatusFilter.FAILED) == ["tokyo", "berlin"]
    assert ids(StatusFilter.ERRORED) == ["berlin"]
    assert ids(StatusFilter.ALL, "#smoke") == ["london", "paris"]
    assert ids(StatusFilter.ALL, "TIMEOUT") == ["berlin"]  # the error text is searched
    assert ids(StatusFilter.FAILED, "tag:smoke") == []
    assert parse_filter("a tag:x #y tag: #") == (["a", "tag:", "#"], ["x", "y"])


def test_case_is_validated_on_open(tmp_path: Path) -> None:
    _, cur = write_reports(tmp_path)
    doc = ReportDocument.open(cur)
    result = doc.case(1)
    assert result.eval_id == "paris" and doc.case(1) is result


def test_malformed_case_names_file_line_and_column(tmp_path: Path) -> None:
    _, cur = write_reports(tmp_path)
    data = json.loads(cur.read_text(encoding="utf-8"))
    data["results"][2]["criterion_results"][0]["score"] = "high"
    cur.write_text(json.dumps(data, indent=2), encoding="utf-8")
    doc = ReportDocument.open(cur)  # the list still opens
    assert doc.case(0).eval_id == "london"
    with pytest.raises(EvalFileError) as info:
        doc.case(2)
    problem = info.value.first
    assert problem.path == str(cur) and problem.line is not None
    assert "results[2].criterion_results[0].score" in problem.json_path


@pytest.mark.parametrize(
    ("text", "where"),
    [('{"eval_set_id": "x", "results": [}', (1, 34)), ("[1, 2]", (1, 1))],
)
def test_unreadable_files_raise_with_the_place(
    tmp_path: Path, text: str, where: tuple[int, int]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EvalFileError) as info:
        ReportDocument.open(path)
    assert (info.value.first.line, info.value.first.column) == where


def test_case_without_eval_id_is_named_precisely(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"eval_set_id": "x", "results": [{"passed": True}]}, indent=2))
    with pytest.raises(EvalFileError) as info:
        ReportDocument.open(path)
    assert "results[0]" in info.value.first.json_path and info.value.first.line == 4


def test_a_malformed_later_case_becomes_an_invalid_row(tmp_path: Path) -> None:
    _, cur = write_reports(tmp_path)
    data = json.loads(cur.read_text(encoding="utf-8"))
    data["results"][3] = {"eval_id": "berlin", "passed": False, "duration_seconds": "slow"}
    cur.write_text(json.dumps(data, indent=2), encoding="utf-8")
    doc = ReportDocument.open(cur)
    row = doc.rows[3]
    assert (row.eval_id, row.status) == ("berlin", "invalid")
    assert [r.eval_id for r in doc.filter_rows(StatusFilter.FAILED)] == ["paris", "berlin"]
    with pytest.raises(EvalFileError):
        doc.case(3)


def test_reader_gives_the_first_page_then_the_rest(tmp_path: Path) -> None:
    from tenxeval_tui.browsing.report_document import ReportReader

    _, cur = write_reports(tmp_path)
    reader = ReportReader(cur)
    doc = reader.first_page(2)
    assert doc is not None and not doc.complete
    assert [r.eval_id for r in doc.rows] == ["london", "paris"]
    assert doc.summary.total_cases == 5  # the summary is known from the start
    doc.add_results(reader.rest())
    assert doc.complete and [r.eval_id for r in doc.rows][2:] == ["tokyo", "berlin", "oslo"]
    assert doc.case(4).eval_id == "oslo"
    whole = ReportReader(cur).first_page(50)
    assert whole is not None and whole.complete and len(whole.rows) == 5


def test_reader_decodes_the_rest_a_case_at_a_time_from_where_the_first_page_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One C call for the whole list held the GIL for its whole length (half a second and
    # more for 10,000 cases): a reading thread stopped the UI's. A case at a time, the
    # UI's threads run between two; and the first page's cases are not decoded again.
    from tenxeval_tui.browsing import reports_index
    from tenxeval_tui.browsing.report_document import ReportReader

    _, cur = write_reports(tmp_path)
    reader = ReportReader(cur)
    assert reader.first_page(2) is not None
    decoded: list[object] = []
    raw_decode = reports_index._DECODER.raw_decode

    def counting(text: str, pos: int = 0) -> tuple[object, int]:
        value, end = raw_decode(text, pos)
        decoded.append(value)
        return value, end

    monkeypatch.setattr(reports_index._DECODER, "raw_decode", counting)
    rest = reader.rest()
    assert [r["eval_id"] for r in rest] == ["tokyo", "berlin", "oslo"]
    assert decoded == rest


def test_reader_freezes_the_rest_so_collections_skip_it(tmp_path: Path) -> None:
    from tenxeval_tui.browsing.report_document import ReportReader

    _, cur = write_reports(tmp_path)
    reader = ReportReader(cur)
    assert reader.first_page(2) is not None
    gc.unfreeze()
    was_enabled = gc.isenabled()
    try:
        rest = reader.rest()
        assert [r["eval_id"] for r in rest] == ["tokyo", "berlin", "oslo"]
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        assert frozen >= len(rest) > 0  # each case (a dict holding lists) is frozen
        assert gc.isenabled() == was_enabled
    finally:
        gc.unfreeze()


def test_reader_reports_a_broken_later_case_with_its_place(tmp_path: Path) -> None:
    from tenxeval_tui.browsing.report_document import ReportReader

    _, cur = write_reports(tmp_path)
    text = cur.read_text(encoding="utf-8")
    cut = text.index('"eval_id": "berlin"')
    cur.write_text(text[:cut] + '"eval_id": berlin' + text[cut + 19 :], encoding="utf-8")
    reader = ReportReader(cur)
    doc = reader.first_page(2)
    assert doc is not None and not doc.complete
    with pytest.raises(EvalFileError) as info:
        reader.rest()
    assert info.value.first.line is not None and "invalid JSON" in info.value.first.message


def test_reader_reads_other_layouts_right(tmp_path: Path) -> None:
    from tenxeval_tui.browsing.report_document import ReportReader

    _, cur = write_reports(tmp_path)
    data = json.loads(cur.read_text(encoding="utf-8"))
    cur.write_text(json.dumps({"summary": data.pop("summary"), **data}), encoding="utf-8")
    reader = ReportReader(cur)
    doc = reader.first_page(2)
    assert doc is not None and doc.summary.total_cases == 5
    doc.add_results(reader.rest())
    assert [r.eval_id for r in doc.rows] == [r.eval_id for r in ReportDocument.open(cur).rows]
    cur.write_text("[1, 2]", encoding="utf-8")
    assert ReportReader(cur).first_page(2) is None  # not a report: the full load says why


def test_comparing_light_rows_matches_comparing_full_reports(tmp_path: Path) -> None:
    from tenxeval_tui.evaluation import EvalReport
    from tenxeval_tui.evaluation.analysis.compare import compare_reports, compare_runs

    base, cur = write_reports(tmp_path)
    light = compare_runs(ReportDocument.open(base).outcome(), ReportDocument.open(cur).outcome())
    full = compare_reports(EvalReport.from_file(base), EvalReport.from_file(cur))
    assert light == full
    doc = ReportDocument.open(cur)
    index = doc.index_of("", "tokyo")
    assert index is not None and doc.case(index).eval_id == "tokyo"
    assert doc.index_of("", "nope") is None


def test_cases_are_found_by_set_id_eval_id_and_occurrence(tmp_path: Path) -> None:
    from tenxeval_tui.evaluation import EvalCaseResult, EvalReport

    def case(eval_id: str, set_id: str | None, name: str) -> EvalCaseResult:
        metadata = {"eval_set_id": set_id} if set_id else {}
        return EvalCaseResult(eval_id=eval_id, name=name, passed=True, metadata=metadata)

    report = EvalReport.create(
        "s", [case("a", "s", "first a"), case("a", "s", "second a"), case("b", None, "b")]
    )
    report.metadata["partial"] = True
    path = tmp_path / "s.json"
    report.to_file(path)
    document = ReportDocument.open(path)
    assert document.partial
    assert document.index_of("s", "a", 1) == 1 and document.index_of("s", "a") == 0
    assert document.index_of("s", "b") == 2  # a case naming no eval set is the report's
    assert [c.key for c in document.outcome().cases] == [("s", "a"), ("s", "a"), ("s", "b")]
