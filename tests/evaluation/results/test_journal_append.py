"""How the run journal appends a case's line (issue #38): the file opened and closed each
line, never held (a journal deleted or replaced mid-run still gets every later case, at its
path), the line ended only when its writing raised nothing, and each eval set's line head
encoded once."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, tagged_with_set
from tenxeval_tui.evaluation.results import journal as journal_module
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs

from .test_json_stream import flood_case


def _case(eval_id: str, eval_set_id: str = "s") -> EvalCaseResult:
    return tagged_with_set(flood_case(eval_id, 1), eval_set_id)


def _ids(path: Path) -> list[str]:
    return [r.eval_id for run in read_journal_runs(path) for r in run.results]


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_journal_deleted_mid_run_gets_every_later_case_at_its_path(tmp_path: Path) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(_case("a"))
    journal.path.unlink()
    journal.on_case_end(_case("b"))
    journal.on_case_end(_case("c"))
    assert _ids(journal.path) == ["b", "c"]


def test_a_journal_replaced_mid_run_gets_every_later_case_in_the_new_file(
    tmp_path: Path,
) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(_case("a"))
    old = journal.path.read_bytes()
    other = tmp_path / "other.jsonl"
    other.write_bytes(old.replace(b'"a"', b'"z"'))  # a whole line of its own
    os.replace(other, journal.path)
    journal.on_case_end(_case("b"))
    assert _ids(journal.path) == ["z", "b"]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_no_file_is_held_open_between_lines_nor_after_a_failed_one(tmp_path: Path) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    before = _open_fds()
    journal.on_case_end(_case("a"))
    assert _open_fds() == before
    with pytest.raises(RuntimeError), journal._line() as line:
        line.write(b'{"half": ')
        raise RuntimeError("stopped")
    assert _open_fds() == before
    journal.on_case_end(_case("b"))
    assert _ids(journal.path) == ["a", "b"]
    assert b'"half"' not in journal.path.read_bytes()


def test_each_eval_set_s_case_line_head_is_encoded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = RunJournal(tmp_path / "j.jsonl")
    odd = 'quote " back \\ \u00e9 \u2028'
    dumped: list[Any] = []
    dumps = json.dumps

    def counted(value: Any, *args: Any, **kwargs: Any) -> str:
        dumped.append(value)
        return dumps(value, *args, **kwargs)

    monkeypatch.setattr(journal_module.json, "dumps", counted)
    for eval_id, set_id in [("a", "s"), ("b", odd), ("c", "s"), ("d", odd), ("e", "s")]:
        journal.on_case_end(_case(eval_id, set_id))
    monkeypatch.undo()
    assert dumped == [{"type": "case", "eval_set_id": "s"}, {"type": "case", "eval_set_id": odd}]
    lines = [json.loads(line) for line in journal.path.read_bytes().splitlines()]
    assert [(line["type"], line["eval_set_id"], line["result"]["eval_id"]) for line in lines] == [
        ("case", "s", "a"),
        ("case", odd, "b"),
        ("case", "s", "c"),
        ("case", odd, "d"),
        ("case", "s", "e"),
    ]
