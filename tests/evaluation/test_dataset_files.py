"""Eval set files: round trips and errors that name file, place and problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalFileError, EvalSet, EvalSetBuilder, validate_eval_set_file


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.evalset.json"
    with pytest.raises(FileNotFoundError, match=r"nope\.evalset\.json"):
        EvalSet.from_file(missing)


def test_broken_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.evalset.json"
    path.write_text('{\n  "eval_set_id": "x",\n  "eval_cases": [,]\n}', encoding="utf-8")
    with pytest.raises(EvalFileError) as info:
        EvalSet.from_file(path)
    problem = info.value.first
    assert (problem.line, problem.column) == (3, 18)
    assert str(problem).startswith(f"{path}:3:18: invalid JSON")


def test_schema_violation_names_the_json_path(tmp_path: Path) -> None:
    cases = [
        {"eval_id": f"c{i}", "conversation": [{"user_content": {"role": "user", "content": "q"}}]}
        for i in range(4)
    ]
    del cases[3]["conversation"][0]["user_content"]
    path = write(tmp_path / "s.evalset.json", {"eval_set_id": "s", "eval_cases": cases})
    with pytest.raises(EvalFileError) as info:
        EvalSet.from_file(path)
    problem = info.value.first
    assert problem.json_path == "eval_cases[3].conversation[0].user_content"
    assert "missing" in problem.message
    assert problem.line is not None


def test_duplicate_eval_ids_are_an_error_at_the_second_case(tmp_path: Path) -> None:
    eval_set = EvalSetBuilder("d").add_case("a", "b", case_id="one").add_case("c", "d").build()
    data = json.loads(eval_set.to_json())
    data["eval_cases"][1]["eval_id"] = "one"
    path = write(tmp_path / "d.evalset.json", data)
    problems = validate_eval_set_file(path)
    assert [p.json_path for p in problems] == ["eval_cases[1].eval_id"]
    assert "duplicate eval_id 'one'" in problems[0].message


def test_unknown_fields_survive_a_round_trip(tmp_path: Path) -> None:
    data = {
        "eval_set_id": "keep",
        "x_owner": "team-a",
        "eval_cases": [
            {
                "eval_id": "c1",
                "x_priority": 3,
                "conversation": [{"user_content": {"role": "user", "content": "hi", "x": 1}}],
            }
        ],
    }
    path = write(tmp_path / "k.evalset.json", data)
    EvalSet.from_file(path).to_file(path)
    again = json.loads(path.read_text())
    assert again["x_owner"] == "team-a"
    assert again["eval_cases"][0]["x_priority"] == 3
    assert again["eval_cases"][0]["conversation"][0]["user_content"]["x"] == 1
