"""Files that would hang or crash a loader: each is a problem naming file, place and reason."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalConfig, EvalFileError, EvalReport, EvalSet
from tenxeval_tui.evaluation.dataset import validate_eval_set_file
from tenxeval_tui.evaluation.files.textfiles import MAX_FILE_ENV, read_text_file

CASE = {"eval_id": "a", "conversation": [{"user_content": {"role": "user", "content": "hi"}}]}


def eval_set_text(**metadata: object) -> str:
    return json.dumps({"eval_set_id": "s", "eval_cases": [CASE], "metadata": metadata}, indent=2)


def only_problem(path: Path) -> str:
    problems = validate_eval_set_file(path)
    assert len(problems) == 1, problems
    return str(problems[0])


def test_an_integer_longer_than_pythons_digit_limit_is_located(tmp_path: Path) -> None:
    digits = sys.get_int_max_str_digits() + 700
    text = eval_set_text(count="PLACE").replace('"PLACE"', "7" * digits)
    path = tmp_path / "big.evalset.json"
    path.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "777" in row)
    column = text.splitlines()[line - 1].index("7") + 1
    assert only_problem(path).startswith(f"{path}:{line}:{column}: a number of {digits} digits")
    for load in (EvalSet.from_file, EvalReport.from_file, EvalConfig.from_file):
        with pytest.raises(EvalFileError, match="digits"):
            load(path)


def test_long_digit_strings_are_no_numbers(tmp_path: Path) -> None:
    path = tmp_path / "ok.evalset.json"
    path.write_text(eval_set_text(code="9" * 6000))
    assert validate_eval_set_file(path) == []


@pytest.mark.parametrize("depth", [200, 500, 990])
def test_nesting_pydantic_refuses_says_why_and_where(tmp_path: Path, depth: int) -> None:
    text = eval_set_text(deep="PLACE").replace('"PLACE"', "[" * depth + "]" * depth)
    path = tmp_path / "deep.evalset.json"
    path.write_text(text)
    problem = validate_eval_set_file(path)[0]
    assert "nested too deeply" in problem.message
    assert problem.line is not None and problem.line > 1  # where the nesting is, not 1:1
    assert problem.json_path == ""


def test_a_lone_surrogate_escape_says_why_and_where(tmp_path: Path) -> None:
    path = tmp_path / "surrogate.evalset.json"
    path.write_text(eval_set_text(note="PLACE").replace("PLACE", "x\\ud800y"))
    problem = validate_eval_set_file(path)[0]
    assert "surrogate" in problem.message and "could not be loaded" not in problem.message
    line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if "ud800" in row)
    assert problem.line == line


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "pipe.evalset.json"
    os.mkfifo(path)
    assert only_problem(path) == f"{path}: is a FIFO (named pipe): only regular files are read"


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "zero.evalset.json"
    path.symlink_to("/dev/zero")
    assert "is a character device: only regular files are read" in only_problem(path)


def test_a_file_over_the_size_cap_names_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.evalset.json"
    path.write_text(eval_set_text(pad="x" * 2_000_000))
    monkeypatch.setenv(MAX_FILE_ENV, "1")
    message = only_problem(path)
    assert "larger than the 1 MB limit" in message and MAX_FILE_ENV in message
    monkeypatch.setenv(MAX_FILE_ENV, "3")
    assert validate_eval_set_file(path) == []


def test_non_utf8_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin.evalset.json"
    path.write_bytes(eval_set_text(city="PLACE").replace("PLACE", "S\xe9").encode("latin-1"))
    line = next(i for i, row in enumerate(path.read_bytes().splitlines(), 1) if b"\xe9" in row)
    assert only_problem(path) == f"{path}:{line}:15: not UTF-8 text (byte 0xe9)"


def test_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.evalset.json"
    path.write_bytes(b"\xef\xbb\xbf" + eval_set_text(city="PLACE").replace("PLACE", "Sé").encode())
    eval_set = EvalSet.from_file(path)
    assert eval_set.metadata == {"city": "Sé"}
    assert not read_text_file(path).startswith("\ufeff")


def test_a_problem_after_a_byte_order_mark_keeps_its_column(tmp_path: Path) -> None:
    path = tmp_path / "bom.evalset.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"eval_set_id": 5}')
    assert only_problem(path).startswith(f"{path}:1:17: eval_set_id:")


@pytest.mark.parametrize("depth", [3000, 100_000])
def test_nesting_past_pythons_parser_is_named_where_it_goes_too_deep(
    tmp_path: Path, depth: int
) -> None:
    text = eval_set_text(deep="PLACE").replace('"PLACE"', '{"a": ' * depth + "1" + "}" * depth)
    path = tmp_path / "deep.evalset.json"
    path.write_text(text)
    problem = validate_eval_set_file(path)[0]
    assert problem.message.startswith("nested too deeply: more than 200 levels")
    deep_line = text.splitlines()[problem.line - 1] if problem.line else ""
    first = deep_line.index('{"a": ')
    # The eval set's object and the metadata's are levels 1 and 2, the first {"a" is 3:
    # the problem is at the bracket of level 201.
    assert problem.column == first + 1 + len('{"a": ') * (201 - 3)


def test_a_thousand_duplicate_ids_are_located_in_one_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Locating each problem with a scan of its own took minutes for 1,000 duplicates.
    from tenxeval_tui.evaluation.files import fileio

    scans: list[int] = []
    locate_many = fileio.locate_many

    def counted(text: str, paths: list[list[object]]) -> list[tuple[int, int]]:
        scans.append(len(paths))
        return locate_many(text, paths)  # type: ignore[arg-type]

    monkeypatch.setattr(fileio, "locate_many", counted)
    cases = [{**CASE, "eval_id": "same"} for _ in range(1001)]
    path = tmp_path / "dupes.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": cases}, indent=1))
    problems = validate_eval_set_file(path)
    assert len(problems) == 1000 and scans == [1000]
    lines = [row for row, text in enumerate(path.read_text().splitlines(), 1) if '"same"' in text]
    assert [p.line for p in problems] == lines[1:]  # each at its own duplicate
