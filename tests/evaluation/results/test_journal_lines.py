"""The run journal's lines: appended whole, read back with the torn ones left out."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.results import journal as journal_module
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs

from .test_json_stream import flood_case


def test_an_unreadable_line_before_the_last_is_an_error_naming_it(tmp_path: Path) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    for name in ("a", "b"):
        journal.on_case_end(flood_case(name, 2))
    lines = journal.path.read_bytes().splitlines(keepends=True)
    journal.path.write_bytes(lines[0] + b'{"type": "case", "eval_set_id": 3 oops\n' + lines[1])
    with pytest.raises(EvalFileError) as caught:
        read_journal_runs(journal.path)
    assert caught.value.problems[0].line == 2
    assert "not a journal line" in caught.value.problems[0].message


def test_blank_lines_after_a_torn_last_line_leave_it_the_last(tmp_path: Path) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(flood_case("a", 2))
    whole = journal.path.read_bytes()
    journal.path.write_bytes(whole + whole[: len(whole) // 3] + b"\n\n  \n")
    assert [r.eval_id for r in read_journal_runs(journal.path)[0].results] == ["a"]


def test_a_case_line_longer_than_a_write_is_appended_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_module, "_LINE_CHUNK", 512)  # written in many pieces
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(flood_case("big", 50))
    journal.on_case_end(flood_case("next", 1))
    lines = journal.path.read_bytes().splitlines()
    assert len(lines) == 2 and len(lines[0]) > 20 * 512
    results = read_journal_runs(journal.path)[0].results
    assert [(r.eval_id, len(r.node_responses)) for r in results] == [("big", 50), ("next", 1)]


def test_a_line_cut_off_part_way_by_bad_text_is_written_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Part of the case is in the file when a lone surrogate stops its serialisation: that
    # part is cut off and the case written again (escaped), on a line of its own.
    monkeypatch.setattr(journal_module, "_LINE_CHUNK", 256)
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(flood_case("first", 1))
    broken = flood_case("bad", 40)
    broken.node_responses[35]["response_text"] = "bad \ud800"
    journal.on_case_end(broken)
    lines = journal.path.read_bytes().splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1])["result"]["eval_id"] == "bad"
    results = read_journal_runs(journal.path)[0].results
    assert [r.eval_id for r in results] == ["first", "bad"]


def test_a_line_under_a_chunk_is_appended_without_asking_the_file_s_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where a line starts is needed only to cut off a line left half-written, which only a
    # line written in chunks can be: a journal line a case took a system call more.
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(flood_case("first", 1))  # the file's end is looked at once
    sizes: list[int] = []
    real_fstat = journal_module.os.fstat

    def fstat(fd: int) -> os.stat_result:
        sizes.append(fd)
        return real_fstat(fd)

    monkeypatch.setattr(journal_module.os, "fstat", fstat)
    for name in ("a", "b", "c"):
        journal.on_case_end(flood_case(name, 2))
    assert sizes == []
    results = read_journal_runs(journal.path)[0].results
    assert [r.eval_id for r in results] == ["first", "a", "b", "c"]


def test_a_journal_left_torn_by_a_killed_run_gets_its_next_line_on_a_line_of_its_own(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.jsonl"
    RunJournal(path).on_case_end(flood_case("a", 1))
    path.write_bytes(path.read_bytes() + b'{"type": "case", "eval_')  # killed mid-write
    again = RunJournal(path)
    again.on_case_end(flood_case("b", 1))
    again.on_case_end(flood_case("c", 1))
    assert [r.eval_id for r in read_journal_runs(path)[0].results] == ["a", "b", "c"]
    assert path.read_bytes().count(b"\n") == 4  # a, the torn line ended, b, c


def test_a_journal_s_run_start_line_holds_every_case_id_in_order(tmp_path: Path) -> None:
    cases = [EvalCase(eval_id=f"c{i}") for i in range(1234)]
    journal = RunJournal(tmp_path / "j.jsonl", {"s": {"provenance": {"agent_sha256": "x"}}})
    journal.on_run_start(EvalSet(eval_set_id="s", name="S", eval_cases=cases), cases)
    (line,) = [json.loads(text) for text in journal.path.read_text().splitlines()]
    assert line["type"] == "run_start" and line["eval_set_id"] == "s"
    assert line["eval_set_name"] == "S"
    assert line["eval_ids"] == [case.eval_id for case in cases]
    assert line["metadata"] == {"provenance": {"agent_sha256": "x"}}
