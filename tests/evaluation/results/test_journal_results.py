"""Reports whose results stay in the journal (results/journal_results.py,
results/streamed_reports.py): the same reports, value for value, as reading the journal
whole gives, and the same report files, byte for byte, written a case at a time."""

from __future__ import annotations

import gc
import json
import random
import weakref
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.reporters import ReporterManager
from tenxeval_tui.evaluation.reporters.html import HTMLReporter
from tenxeval_tui.evaluation.reporters.json import JSONReporter
from tenxeval_tui.evaluation.reporters.junit import JUnitXMLReporter
from tenxeval_tui.evaluation.results.journal import read_journal_runs
from tenxeval_tui.evaluation.results.journal_results import (
    JournalResults,
    is_streamed,
    listed,
    none_holds,
    read_journal_runs_streamed,
)
from tenxeval_tui.evaluation.results.json_stream import report_json_parts
from tenxeval_tui.evaluation.results.streamed_reports import (
    combined_streamed,
    merged_streamed,
    with_results_added,
)
from tenxeval_tui.evaluation.subsets import merge_results

from .varied_journal import varied_result, write_varied_journal


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    path = tmp_path / "run.journal.jsonl"
    write_varied_journal(path, cases=48, sets=2, finish=False)
    return path


def _same_time(report: EvalReport, like: EvalReport) -> EvalReport:
    return report.model_copy(update={"timestamp": like.timestamp})


def test_streamed_reports_equal_the_loaded_ones_value_for_value(journal: Path) -> None:
    loaded = read_journal_runs(journal)
    streamed = read_journal_runs_streamed(journal)

    assert [is_streamed(r) for r in streamed] == [True, True]
    assert isinstance(streamed[0].results, JournalResults)
    assert len(streamed) == len(loaded) == 2
    for whole, lazy in zip(loaded, streamed, strict=True):
        assert lazy.summary == whole.summary
        assert list(lazy.results) == whole.results  # report order, not the finishing order
        assert lazy.metadata == whole.metadata  # the unfinished set is partial
        assert (lazy.eval_set_id, lazy.eval_set_name) == (whole.eval_set_id, whole.eval_set_name)
        assert lazy.config_used == whole.config_used
        assert lazy.results[-1] == whole.results[-1]
        assert lazy.results[3:6] == whole.results[3:6]
    assert streamed[1].is_partial and not streamed[0].is_partial
    assert streamed[0].summary.repeat_stats is not None
    assert streamed[0].summary.total_token_usage.total_tokens > 0


def test_cases_that_finished_in_order_are_summed_as_they_are_read(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    write_varied_journal(path, cases=30, sets=1, in_order=True)
    (whole,) = read_journal_runs(path)
    (lazy,) = read_journal_runs_streamed(path)
    assert lazy.summary == whole.summary
    assert list(lazy.results) == whole.results


def test_a_combined_report_and_one_with_results_added_equal_the_loaded_ones(
    journal: Path,
) -> None:
    loaded = read_journal_runs(journal)
    streamed = read_journal_runs_streamed(journal)
    whole = EvalReport.combine(loaded)
    lazy = combined_streamed(streamed)
    # The two sets share their case ids: the per-case tokens are keyed set/id.
    assert "set0/c0" in lazy.summary.per_case_token_usage
    assert lazy.summary == whole.summary
    assert lazy.metadata == whole.metadata
    assert list(lazy.results) == whole.results
    assert lazy.results[50] == whole.results[50]

    extra = varied_result(random.Random(3), "late", "set1")
    added = with_results_added(streamed[1], [extra])
    made = EvalReport.create(
        eval_set_id=loaded[1].eval_set_id,
        results=[*loaded[1].results, extra],
        eval_set_name=loaded[1].eval_set_name,
        metadata=loaded[1].metadata,
    )
    assert added.summary == made.summary
    assert list(added.results) == made.results


def _write_all(report: EvalReport, folder: Path) -> dict[str, bytes]:
    config = ReporterConfig(
        output_dir=str(folder),
        console=False,
        junit_xml=True,
        csv=True,
        jsonl=True,
        timestamp_files=False,
    )
    output = ReporterManager(config).run_all(report)
    assert not output.errors
    return {Path(p).name: Path(p).read_bytes() for p in output.generated_files}


@pytest.mark.parametrize("combined", [False, True])
def test_every_report_file_is_the_same_bytes_streamed_or_loaded(
    journal: Path, tmp_path: Path, combined: bool
) -> None:
    loaded = read_journal_runs(journal)
    streamed = read_journal_runs_streamed(journal)
    lazy = combined_streamed(streamed) if combined else streamed[0]
    whole = _same_time(EvalReport.combine(loaded) if combined else loaded[0], lazy)

    from_lazy = _write_all(lazy, tmp_path / "lazy")
    from_whole = _write_all(whole, tmp_path / "whole")

    assert sorted(from_lazy) == sorted(from_whole) and len(from_lazy) == 5
    for name, data in from_whole.items():
        assert from_lazy[name] == data, name


def test_reports_cut_short_or_with_data_left_out_are_the_same_bytes(
    journal: Path, tmp_path: Path
) -> None:
    (lazy, _) = read_journal_runs_streamed(journal)
    whole = _same_time(read_journal_runs(journal)[0], lazy)
    writers = [
        HTMLReporter(max_cases=7),  # 7 of 48 shown: the failing ones first
        JSONReporter(compact_above=10),
        JSONReporter(include_tool_call_details=False, include_actual_response=False),
        JUnitXMLReporter(include_details=False),
    ]
    for number, writer in enumerate(writers):
        one, two = tmp_path / f"lazy{number}", tmp_path / f"whole{number}"
        assert writer.save(lazy, one).read_bytes() == writer.save(whole, two).read_bytes()
    assert "This page lists 7 of the 48 cases" in (tmp_path / "lazy0").read_text()


def test_junit_written_in_pieces_is_the_tree_written_whole(journal: Path) -> None:
    loaded = read_journal_runs(journal)
    writer = JUnitXMLReporter()
    for report in (loaded[0], EvalReport.combine(loaded), EvalReport.create("none", [])):
        assert b"".join(writer.render_parts(report)).decode() == writer.render(report)


def test_results_stay_readable_once_the_journal_is_removed(journal: Path) -> None:
    (lazy, _) = read_journal_runs_streamed(journal)
    expected = read_journal_runs(journal)[0].results
    journal.unlink()  # as a run drops its journal once the reports are written
    assert list(lazy.results) == expected
    assert listed(lazy).results == expected and not is_streamed(listed(lazy))
    assert EvalReport.model_validate_json(lazy.to_json()).results == expected


def test_going_through_the_results_keeps_none_of_them(journal: Path) -> None:
    (lazy, _) = read_journal_runs_streamed(journal)
    seen: list[weakref.ref[object]] = []
    gc.collect()
    for result in lazy.results:
        seen.append(weakref.ref(result))
    del result
    gc.collect()
    assert len(seen) == 48
    assert all(ref() is None for ref in seen)


def test_what_the_results_hold_is_known_without_reading_them_again(journal: Path) -> None:
    streamed = read_journal_runs_streamed(journal)
    loaded = read_journal_runs(journal)
    for report in (streamed[0], combined_streamed(streamed)):
        assert none_holds(report.results, metadata="reused_from")
        assert none_holds(report.results, detail="usage_estimated")
        assert not none_holds(report.results, metadata="eval_set_id")
        assert not none_holds(report.results, detail="reason")  # the judge's, in some repeats
    assert not none_holds(loaded[0].results, metadata="reused_from")  # a list: not known


@pytest.mark.parametrize(
    "switches",
    [
        {"include_details": False},
        {"include_trajectory": False, "include_node_responses": False},
        {"include_actual_response": False},
        {"include_tool_call_details": False, "compact_above": 10},
    ],
)
def test_json_with_data_left_out_is_written_a_case_at_a_time_as_whole(
    journal: Path, switches: dict[str, object]
) -> None:
    loaded = read_journal_runs(journal)
    broken = loaded[0].results[0].model_copy(update={"actual_response": "bad \ud800 text"})
    reports = [
        loaded[0],
        EvalReport.combine(loaded),
        EvalReport.create("none", []),
        EvalReport.create("bad", [broken, *loaded[0].results[1:4]]),  # cleaned as U+FFFD
    ]
    writer = JSONReporter(**switches)  # type: ignore[arg-type]
    for report in reports:
        assert b"".join(writer.render_parts(report)) == writer.render_bytes(report)
    lazy = read_journal_runs_streamed(journal)[0]
    assert b"".join(writer.render_parts(lazy)) == writer.render_bytes(_same_time(loaded[0], lazy))


def test_a_retry_merged_into_a_streamed_report_equals_the_merged_lists(journal: Path) -> None:
    (whole, _) = read_journal_runs(journal)
    (lazy, _) = read_journal_runs_streamed(journal)
    eval_set = EvalSet(
        eval_set_id="set0",
        eval_cases=[EvalCase.single_turn(f"c{i}", f"q{i}", "Paris") for i in range(48)],
    )
    rng = random.Random(5)
    errored = [r.eval_id for r in whole.results if r.is_error]
    newer = EvalReport.create(
        "set0", [varied_result(rng, eval_id, "set0") for eval_id in errored], wall_seconds=2.0
    )

    merged = merged_streamed(lazy, newer, eval_set)
    expected = merge_results(whole, newer, eval_set)

    assert merged is not None and is_streamed(merged)
    assert merged.summary == expected.summary
    assert merged.metadata == expected.metadata and merged.config_used == expected.config_used
    assert list(merged.results) == expected.results
    assert merged.results[5] == expected.results[5]
    # A case the report does not have, or an eval set in another order: the lists are merged.
    other = EvalReport.create("set0", [varied_result(rng, "new", "set0")])
    assert merged_streamed(lazy, other, eval_set) is None
    backwards = eval_set.model_copy(update={"eval_cases": eval_set.eval_cases[::-1]})
    assert merged_streamed(lazy, newer, backwards) is None


@pytest.mark.parametrize("indent", [2, None])
def test_a_summary_of_many_cases_is_written_in_pieces_as_whole(indent: int | None) -> None:
    rng = random.Random(9)
    results = [varied_result(rng, f"c{i}") for i in range(1_234)]  # past a batch of tokens
    for report in (
        EvalReport.create("many", results),
        EvalReport.combine(
            [EvalReport.create("a", results[:700]), EvalReport.create("b", results[100:900])]
        ),
    ):
        assert len(report.summary.per_case_token_usage) > 500
        pieces = list(report_json_parts(report, indent))
        whole = report.__pydantic_serializer__.to_json(report, indent=indent)
        assert b"".join(pieces) == whole
        tokens = report.summary.model_dump_json(include={"per_case_token_usage"}, indent=indent)
        assert max(map(len, pieces)) < len(tokens) / 2  # the tokens too, in batches


def test_a_compact_json_report_copies_the_journals_cases_without_reading_them(
    journal: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (lazy, _) = read_journal_runs_streamed(journal)
    whole = _same_time(read_journal_runs(journal)[0], lazy)
    expected = JSONReporter(compact_above=10).save(whole, tmp_path / "whole.json").read_bytes()
    read: list[object] = []

    def reading(data: object) -> object:
        read.append(data)
        raise AssertionError("a case was read back to be written")

    monkeypatch.setattr("tenxeval_tui.evaluation.results.journal_results.case_result", reading)
    written = JSONReporter(compact_above=10).save(lazy, tmp_path / "lazy.json").read_bytes()
    assert written == expected
    assert read == []


def test_journal_lines_written_another_way_are_serialised_again(tmp_path: Path) -> None:
    """A line of the journal's ``json.dumps`` fallback (spaces after the colons, or text
    UTF-8 cannot hold escaped): its case is read and written as a report writes it."""
    path = tmp_path / "j.jsonl"
    write_varied_journal(path, cases=12, sets=1)
    lines = path.read_bytes().splitlines(keepends=True)
    other = json.loads(lines[3])
    lines[3] = (json.dumps(other) + "\n").encode()  # the same case, json.dumps' spacing
    broken = json.loads(lines[5])
    broken["result"]["actual_response"] = "bad \ud800 text"  # as the fallback writes it
    lines[5] = (json.dumps(broken) + "\n").encode()
    path.write_bytes(b"".join(lines))
    (lazy,) = read_journal_runs_streamed(path)
    (whole,) = read_journal_runs(path)
    writer = JSONReporter(compact_above=3)
    written = writer.save(lazy, tmp_path / "lazy.json").read_bytes()
    assert written == writer.save(_same_time(whole, lazy), tmp_path / "w.json").read_bytes()
    assert EvalReport.from_file(tmp_path / "lazy.json").results[2:5] == whole.results[2:5]
    assert "bad \ufffd text" in written.decode()  # cleaned, as a report of it is
