"""Where a journal's reader places each case (results/journal_results.py ``IndexedRun``,
its ids held compactly: results/id_places.py): the report order reading the journal whole
gives, for cases that come in order, out of order, listed twice, not listed, or in a run
continued or started again."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs, read_runs
from tenxeval_tui.evaluation.results.journal_results import IndexedRun, read_journal_runs_streamed
from tenxeval_tui.evaluation.results.journal_tail import JournalTail

from .varied_journal import varied_result


def _write(path: Path, *parts: list[str] | tuple[str, ...]) -> None:
    """A journal of set ``s``: each list a ``run_start`` listing those ids, each tuple the
    ids of the cases that then finish, in that order."""
    rng = random.Random(11)
    journal = RunJournal(path)
    for part in parts:
        if isinstance(part, list):
            line = {"type": "run_start", "eval_set_id": "s", "eval_set_name": "S"}
            with path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({**line, "time": 0.0, "eval_ids": part}) + "\n")
            journal._ends_whole = False  # written beside it
        else:
            for eval_id in part:
                journal.on_case_end(varied_result(rng, eval_id, "s"))


def _ids(report: EvalReport) -> list[str]:
    return [r.eval_id for r in report.results]


def _assert_read_whole(path: Path) -> list[EvalReport]:
    """The journal's reports read in place (whole, and as it grows): those of reading
    it whole into lists, value for value."""
    whole = read_journal_runs(path)
    tail = JournalTail(path)
    tail.read_new()
    for streamed in (read_journal_runs_streamed(path), tail.finish()):
        assert len(streamed) == len(whole)
        for lazy, read in zip(streamed, whole, strict=True):
            assert list(lazy.results) == read.results
            assert lazy.summary == read.summary
            assert lazy.metadata == read.metadata
    return whole


def test_cases_in_their_listed_order_are_counted_as_they_come(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    ids = [f"c{i}" for i in range(2100)]  # past a block of joined ids
    _write(path, ids, tuple(ids))
    (run,) = read_runs(path, IndexedRun)
    assert run.totals is not None
    assert list(run.order) == ids
    (report,) = _assert_read_whole(path)
    assert _ids(report) == ids


def test_cases_out_of_order_are_reported_in_the_listed_order(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    ids = [f"c{i}" for i in range(300)]
    came = ids[:]
    random.Random(5).shuffle(came)
    _write(path, ids, tuple(came))
    (report,) = _assert_read_whole(path)
    assert _ids(report) == ids


def test_an_id_listed_twice_takes_its_last_place(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _write(path, ["a", "b", "a", "c"], ("a", "b", "c", "a"))
    (report,) = _assert_read_whole(path)
    assert _ids(report) == ["b", "a", "a", "c"]  # both a's at place 2, as they came


@pytest.mark.parametrize(
    ("listed", "came", "expected"),
    [
        (["a", "b"], ("x", "a", "y", "b"), ["a", "b", "x", "y"]),
        # Unlisted ids go to the count of distinct ids: here among the listed ones.
        (["a", "a", "a", "b", "c"], ("c", "x", "b", "a"), ["a", "x", "b", "c"]),
    ],
)
def test_unlisted_ids_come_after_the_distinct_listed_ones(
    tmp_path: Path, listed: list[str], came: tuple[str, ...], expected: list[str]
) -> None:
    path = tmp_path / "j.jsonl"
    _write(path, listed, came)
    (report,) = _assert_read_whole(path)
    assert _ids(report) == expected


def test_a_run_continued_or_started_again_places_its_cases_as_read_whole(
    tmp_path: Path,
) -> None:
    continued = tmp_path / "continued.jsonl"  # a worker past a deadline: the rest after it
    _write(continued, ["a", "b", "c", "d"], ("b", "a"), ("d", "c"))
    (report,) = _assert_read_whole(continued)
    assert _ids(report) == ["a", "b", "c", "d"]

    again = tmp_path / "again.jsonl"  # the set started over: its second run_start
    _write(again, ["a", "b", "c", "d"], ("a", "b"), ["c", "d"], ("d", "c"))
    first, second = _assert_read_whole(again)
    assert (_ids(first), _ids(second)) == (["a", "b"], ["c", "d"])


def test_a_run_with_no_ids_listed_keeps_its_cases_as_they_came(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _write(path, [], ("z", "y", "z"))
    (report,) = _assert_read_whole(path)
    assert _ids(report) == ["z", "y", "z"]
