"""A journal read as it grows (results/journal_tail.py) gives the reports of reading it
whole, and the running totals survive cases that finish a few places out of order
(results/journal_results.py ``IndexedRun``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.results import journal_results, journal_tail
from tenxeval_tui.evaluation.results.journal import read_journal_runs, read_runs
from tenxeval_tui.evaluation.results.journal_results import (
    IndexedRun,
    JournalResults,
    read_journal_runs_streamed,
)
from tenxeval_tui.evaluation.results.journal_tail import JournalTail

from .varied_journal import write_varied_journal


def _grow(source: bytes, path: Path, tail: JournalTail, seed: int = 3) -> None:
    """Append ``source`` to ``path`` in pieces of random sizes (most ending mid-line),
    the tail reading after each."""
    rng = random.Random(seed)
    at = 0
    tail.read_new()  # no file yet
    while at < len(source):
        size = rng.randint(1, 900)
        with path.open("ab") as handle:
            handle.write(source[at : at + size])
        at += size
        tail.read_new()


def _assert_same(tailed: list[EvalReport], whole: list[EvalReport]) -> None:
    assert len(tailed) == len(whole)
    for lazy, read in zip(tailed, whole, strict=True):
        assert isinstance(lazy.results, JournalResults)
        assert lazy.results[0] == read.results[0]
        assert lazy.summary == read.summary
        assert list(lazy.results) == list(read.results)
        assert lazy.metadata == read.metadata
        assert lazy.config_used == read.config_used
        assert (lazy.eval_set_id, lazy.eval_set_name) == (read.eval_set_id, read.eval_set_name)


@pytest.mark.parametrize("chunk", [journal_tail.CHUNK, 97])
def test_a_journal_read_as_it_grows_gives_the_reports_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    written = tmp_path / "written.jsonl"
    write_varied_journal(written, cases=24, sets=2, finish=False)
    monkeypatch.setattr(journal_tail, "CHUNK", chunk)  # 97: every line longer than a read
    growing = tmp_path / "growing.jsonl"
    tail = JournalTail(growing)
    _grow(written.read_bytes(), growing, tail)

    tailed = tail.finish()
    _assert_same(tailed, read_journal_runs_streamed(written))
    _assert_same(tailed, read_journal_runs(written))  # loaded whole: report order
    assert not tail.failed


def test_each_case_is_told_with_where_its_line_starts(tmp_path: Path) -> None:
    written = tmp_path / "written.jsonl"
    write_varied_journal(written, cases=10, sets=2)
    growing = tmp_path / "growing.jsonl"
    told: list[tuple[str, str, int]] = []

    def seen(result: EvalCaseResult, start: int) -> None:
        told.append((result.eval_set_id, result.eval_id, start))

    tail = JournalTail(growing, seen)
    _grow(written.read_bytes(), growing, tail)
    tail.finish()

    lines = written.read_bytes().splitlines(keepends=True)
    starts = [sum(map(len, lines[:i])) for i in range(len(lines))]
    cases = [start for start, line in zip(starts, lines, strict=True) if b'"type": "case"' in line]
    assert [start for _, _, start in told] == cases
    whole = read_journal_runs(written)
    finished = {(r.eval_set_id, r.eval_id) for report in whole for r in report.results}
    assert {(set_id, eval_id) for set_id, eval_id, _ in told} == finished
    assert len(told) == 20


def test_torn_lines_read_as_when_the_journal_is_read_whole(tmp_path: Path) -> None:
    written = tmp_path / "written.jsonl"
    write_varied_journal(written, cases=12, sets=1, finish=False)
    lines = written.read_bytes().splitlines(keepends=True)
    # a write a kill cut short mid-file (the next writer ended it), and one at the end
    torn = b"".join([*lines[:5], lines[5][:40] + b"\n", *lines[5:], lines[3][:60]])
    (tmp_path / "torn.jsonl").write_bytes(torn)
    growing = tmp_path / "growing.jsonl"
    tail = JournalTail(growing)
    _grow(torn, growing, tail)

    _assert_same(tail.finish(), read_journal_runs_streamed(tmp_path / "torn.jsonl"))


def test_a_line_that_cannot_be_read_mid_file_is_the_same_error(tmp_path: Path) -> None:
    written = tmp_path / "written.jsonl"
    write_varied_journal(written, cases=6, sets=1)
    lines = written.read_bytes().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join([*lines[:3], b'{"type": "case"}\n', *lines[3:]]))
    with pytest.raises(EvalFileError) as whole:
        read_journal_runs_streamed(broken)
    growing = tmp_path / "growing.jsonl"
    tail = JournalTail(growing)
    _grow(broken.read_bytes(), growing, tail)

    assert tail.failed  # found as it grew: the whole file is read again at the end
    with pytest.raises(EvalFileError) as tailed:
        tail.finish()
    assert str(tailed.value).replace(str(growing), "F") == str(whole.value).replace(
        str(broken), "F"
    )


def test_cases_a_few_places_out_of_order_keep_their_running_totals(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    write_varied_journal(path, cases=40, sets=1)  # every fourth case swapped 3 places away
    runs = read_runs(path, IndexedRun)
    assert runs[0].totals is not None  # the summary need not be worked out again
    (whole,) = read_journal_runs(path)
    (lazy,) = read_journal_runs_streamed(path)
    assert lazy.summary == whole.summary


def test_cases_held_back_past_the_most_are_summed_once_sorted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.jsonl"
    write_varied_journal(path, cases=40, sets=1)
    monkeypatch.setattr(journal_results, "HOLD_MOST", 1)
    runs = read_runs(path, IndexedRun)
    assert runs[0].totals is None
    (whole,) = read_journal_runs(path)
    (lazy,) = read_journal_runs_streamed(path)
    assert lazy.summary == whole.summary
