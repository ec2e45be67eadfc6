"""Eval set files: round trips and errors that name file, place and problem."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenxeval_tui.evaluation import (
    EvalCase,
    EvalFileError,
    EvalSet,
    EvalSetBuilder,
    ToolCall,
    validate_eval_set_file,
)
from tenxeval_tui.evaluation.dataset.arg_matchers import MATCHERS
from tenxeval_tui.evaluation.dataset.eval_set import check_parsed_eval_set


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


json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=12)
# Keys named as argument matchers ($in, $any...) make a value a matcher, with rules of its own.
json_keys = st.text(max_size=6).filter(lambda key: key not in MATCHERS)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(json_keys, inner, max_size=3),
    max_leaves=6,
)
tool_calls = st.builds(
    ToolCall,
    name=st.text(min_size=1, max_size=10),
    args=st.dictionaries(json_keys, json_values, max_size=3),
)
cases = st.builds(
    lambda turns, tools, tags, meta: EvalCase.multi_turn(
        eval_id="placeholder", conversation=turns, expected_tools=tools, tags=tags, metadata=meta
    ),
    st.lists(
        st.tuples(st.text(max_size=20), st.none() | st.text(max_size=20)), min_size=1, max_size=3
    ),
    st.lists(tool_calls, max_size=3),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(json_keys, json_values, max_size=3),
)


@settings(max_examples=60)
@given(st.lists(cases, max_size=5), st.text(max_size=20))
def test_json_round_trip(case_list: list[EvalCase], name: str) -> None:
    for index, case in enumerate(case_list):
        case.eval_id = f"case-{index}"
    eval_set = EvalSet(eval_set_id="prop", name=name, eval_cases=case_list)
    assert EvalSet.model_validate_json(eval_set.to_json()) == eval_set
    assert EvalSet.model_validate_json(eval_set.to_json(indent=None)) == eval_set


def test_other_bad_inputs_name_the_file(tmp_path: Path) -> None:
    not_utf8 = tmp_path / "latin.evalset.json"
    not_utf8.write_bytes(b'{"eval_set_id": "caf\xe9"}')
    top_list = write(tmp_path / "list.evalset.json", [1, 2])
    folder = tmp_path / "dir.evalset.json"
    folder.mkdir()
    bad_type = write(
        tmp_path / "type.evalset.json",
        {"eval_set_id": "t", "eval_cases": [{"eval_id": "a", "tags": "smoke"}]},
    )
    messages = {
        path.name: [str(p) for p in validate_eval_set_file(path)]
        for path in (not_utf8, top_list, folder, bad_type)
    }
    assert "not UTF-8" in messages["latin.evalset.json"][0]
    assert "expected a JSON object" in messages["list.evalset.json"][0]
    assert "is a folder" in messages["dir.evalset.json"][0]
    assert messages["type.evalset.json"] == [
        f'{bad_type}:6:15: eval_cases[0].tags: Input should be a valid array (got "smoke")'
    ]
    assert validate_eval_set_file(tmp_path / "missing.json")[0].message == "file not found"


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    data = {
        "eval_set_id": "many",
        "eval_cases": [
            {"eval_id": "a", "conversation": [{"user_content": {"role": "user"}}]},
            {"eval_id": "a", "conversation": []},
            {"eval_id": "b", "conversation": [{"expected_tool_trajectory": [{"args": {}}]}]},
        ],
    }
    problems = validate_eval_set_file(write(tmp_path / "many.evalset.json", data))
    assert [p.json_path for p in problems] == [
        "eval_cases[0].conversation[0].user_content.content",
        "eval_cases[2].conversation[0].user_content",
        "eval_cases[2].conversation[0].expected_tool_trajectory[0].name",
        "eval_cases[1].eval_id",
    ]
    assert all(p.line is not None and p.column is not None for p in problems)


def _big_set(count: int) -> dict[str, Any]:
    case = EvalCase.single_turn("x", "q", "a", expected_tools=[ToolCall(name="t", args={"n": 1})])
    cases = [
        case.model_copy(update={"eval_id": f"c{i}"}).model_dump(mode="json") for i in range(count)
    ]
    return {"eval_set_id": "big", "name": "big", "eval_cases": cases}


def _spoil_duplicate(data: dict[str, Any]) -> None:
    data["eval_cases"][230]["eval_id"] = "c7"


def _spoil_late_case(data: dict[str, Any]) -> None:
    data["eval_cases"][240]["conversation"][0]["expected_tool_trajectory"][0]["args"] = "x"


def _spoil_header(data: dict[str, Any]) -> None:
    data["name"] = 5


def _bare_string_messages(data: dict[str, Any]) -> None:
    turn = data["eval_cases"][150]["conversation"][0]
    turn["user_content"] = "plain"
    turn["expected_final_response"] = "reply"


def _cases_not_a_list(data: dict[str, Any]) -> None:
    data["eval_cases"] = {"c0": {}}


def _no_cases(data: dict[str, Any]) -> None:
    del data["eval_cases"]


@pytest.mark.parametrize(
    "change",
    [
        lambda data: None,
        _spoil_duplicate,
        _spoil_late_case,
        _spoil_header,
        _bare_string_messages,
        _cases_not_a_list,
        _no_cases,
    ],
)
def test_checking_parsed_data_finds_what_the_file_check_finds(
    tmp_path: Path, change: Callable[[dict[str, Any]], None]
) -> None:
    data = _big_set(250)  # more cases than one chunk of the parsed check
    change(data)
    path = write(tmp_path / "big.evalset.json", data)
    parsed = json.loads(path.read_text(encoding="utf-8"))
    assert check_parsed_eval_set(path, parsed) == validate_eval_set_file(path)
    assert parsed == data  # the check leaves the data as it was


def test_a_spoiled_late_case_is_found_by_the_parsed_check(tmp_path: Path) -> None:
    data = _big_set(250)
    _spoil_duplicate(data)
    path = write(tmp_path / "big.evalset.json", data)
    problems = check_parsed_eval_set(path, json.loads(path.read_text(encoding="utf-8")))
    assert [p.json_path for p in problems] == ["eval_cases[230].eval_id"]
    assert "duplicate eval_id 'c7'" in problems[0].message


def test_google_adks_nulls_for_unset_fields_load_as_our_defaults(tmp_path: Path) -> None:
    # ADK dumps its models with every unset Optional as null
    path = tmp_path / "adk.evalset.json"
    turn = {"invocation_id": None, "user_content": {"role": "user", "parts": [{"text": "Hi"}]}}
    case = {
        "eval_id": "c1",
        "conversation": [turn],
        "session_input": {"app_name": "a", "user_id": None, "state": None},
    }
    bare = {**case, "eval_id": "c2", "session_input": None}
    path.write_text(
        json.dumps(
            {"eval_set_id": "s", "name": None, "description": None, "eval_cases": [case, bare]}
        )
    )
    loaded = EvalSet.from_file(path)
    assert (loaded.name, loaded.description) == ("", "")
    first, second = loaded.eval_cases
    assert first.session_input.app_name == "a"
    assert (first.session_input.user_id, first.session_input.state) == ("test_user", {})
    assert first.conversation[0].invocation_id  # a fresh id rather than null
    assert first.get_user_queries() == ["Hi"]
    assert second.session_input.app_name == ""
    # a null where a value is required is still named
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": [{**case, "eval_id": None}]}))
    with pytest.raises(EvalFileError, match="eval_id"):
        EvalSet.from_file(path)
