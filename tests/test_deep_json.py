"""JSON nested deeper than the parser goes is a named problem everywhere, never a crash.

A file of a few kilobytes (``[[[[...``) makes ``json.loads`` raise ``RecursionError``,
which is no ``ValueError``: each reader must turn it into its own kind of error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.authoring.case_fields import FieldValueError, with_field
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.reports_index import read_entry
from tenxeval_tui.evaluation import EvalConfig, EvalFileError, EvalReport, EvalSet

DEEP = '{"eval_set_id": "x", "eval_cases": ' + "[" * 100_000 + "]" * 100_000 + "}"


@pytest.mark.parametrize(
    "load",
    [
        EvalSet.from_file,
        EvalReport.from_file,
        EvalConfig.from_file,
        EvalSetDocument.load,
        ReportDocument.open,
    ],
)
def test_every_file_reader_names_the_problem(tmp_path: Path, load: object) -> None:
    path = tmp_path / "deep.evalset.json"
    path.write_text(DEEP)
    with pytest.raises(EvalFileError) as info:
        load(path)  # type: ignore[operator]
    assert info.value.first.path == str(path)
    assert "nested too deeply" in info.value.first.message


def test_the_report_list_shows_a_deep_file_as_broken(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    entry = read_entry(path)
    assert entry.problem is not None and "nested too deeply" in entry.problem.message


def test_a_deep_value_typed_in_a_field_is_a_field_problem() -> None:
    with pytest.raises(FieldValueError, match="nested too deeply"):
        with_field({"eval_id": "a"}, "metadata", "[" * 100_000)
