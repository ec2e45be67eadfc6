"""Argument matchers: what each matches, what it says when it does not, what is refused."""

from __future__ import annotations

from typing import Any

import pytest

from tenxeval_tui.evaluation.dataset.arg_matchers import (
    MatcherError,
    compile_args,
    matcher_problems,
)


def fits(expected: dict[str, Any], actual: dict[str, Any], ignore: tuple[str, ...] = ()) -> bool:
    pattern = compile_args(expected, ignore)
    verdict = pattern.matches(actual)
    # The fast answer and the explanation never disagree.
    assert verdict == (pattern.mismatches(actual) == [])
    return verdict


@pytest.mark.parametrize(
    ("matcher", "good", "bad"),
    [
        ({"$any": True}, ["London", 3, None, {"a": 1}], []),
        ({"$regex": "^Lon"}, ["London", "Londres"], ["New London", 3, None]),
        ({"$regex": "(?i)paris"}, ["PARIS, France"], ["Rome"]),
        ({"$approx": 3.0, "tol": 0.05}, [3.0, 2.95, 3.049, 3], [3.06, "3.0", True, None]),
        ({"$approx": 0.3}, [0.1 + 0.2, 0.3], [0.3001]),  # no tol: float rounding only
        ({"$contains": "rain"}, ["heavy rain", "rain"], ["sunny", ["rain"]]),
        ({"$in": ["C", "F"]}, ["C", "F"], ["K", ["C"]]),
        ({"$in": [{"$regex": "^a"}, 1]}, ["apple", 1], ["banana", 2]),
        ({"$subset": {"a": 1}}, [{"a": 1}, {"a": 1, "b": 2}], [{"b": 2}, {"a": 2}, "a"]),
        ({"$eq": {"$regex": "x"}}, [{"$regex": "x"}], ["x"]),  # read literally
    ],
)
def test_each_matcher_as_an_argument(
    matcher: dict[str, Any], good: list[Any], bad: list[Any]
) -> None:
    for value in good:
        assert fits({"v": matcher}, {"v": value}), value
    for value in bad:
        assert not fits({"v": matcher}, {"v": value}), value


def test_any_needs_the_argument_to_be_given() -> None:
    assert not fits({"v": {"$any": True}}, {})
    (miss,) = compile_args({"v": {"$any": True}}).mismatches({})
    assert miss.describe() == 'v: missing (expected {"$any": true})'


def test_plain_values_compare_for_equality_as_without_matchers() -> None:
    assert fits({"city": "Paris", "n": 2}, {"city": "Paris", "n": 2})
    assert not fits({"city": "Paris"}, {"city": "Paris", "n": 2})  # an extra argument
    assert not fits({"city": "Paris", "n": 2}, {"city": "Paris"})  # a missing one
    assert fits({"n": 2}, {"n": 2.0})  # as ToolCall.matches compares them (==)


def test_matchers_work_at_any_depth() -> None:
    expected = {"filter": {"name": {"$regex": "^Lon"}, "tags": [{"$contains": "x"}, 2]}}
    assert fits(expected, {"filter": {"name": "London", "tags": ["axe", 2]}})
    assert not fits(expected, {"filter": {"name": "London", "tags": ["axe", 3]}})
    found = compile_args(expected).mismatches({"filter": {"name": "Paris", "tags": ["b"]}})
    assert [m.describe() for m in found] == [
        'filter.name: "Paris" does not match $regex "^Lon"',
        "filter.tags: 1 items, expected 2",
        'filter.tags[0]: "b" does not contain "x" ($contains)',
    ]


def test_subset_as_the_whole_args() -> None:
    expected = {"$subset": {"city": {"$regex": "^Lon"}}}
    assert fits(expected, {"city": "London", "timestamp": 1712})
    assert not fits(expected, {"timestamp": 1712})


def test_ignored_keys_are_left_out_at_every_depth_on_both_sides() -> None:
    expected = {"city": "Paris", "timestamp": 1, "meta": {"timestamp": 2, "v": 1}}
    actual = {"city": "Paris", "timestamp": 99, "meta": {"v": 1, "timestamp": 7}}
    assert not fits(expected, actual)
    assert fits(expected, actual, ignore=("timestamp",))
    assert fits({"city": "Paris"}, {"city": "Paris", "timestamp": 5}, ignore=("timestamp",))


def test_each_mismatch_names_the_argument_and_the_matcher() -> None:
    pattern = compile_args(
        {
            "city": {"$regex": "^Lon"},
            "temp": {"$approx": 3.0, "tol": 0.05},
            "q": {"$contains": "rain"},
            "unit": {"$in": ["C", "F"]},
            "day": "mon",
        }
    )
    found = pattern.mismatches({"city": "Paris", "temp": 3.2, "q": "sun", "unit": "K", "x": 1})
    assert [(m.path, m.matcher, m.problem) for m in found] == [
        ("city", "$regex", '"Paris" does not match $regex "^Lon"'),
        ("temp", "$approx", "3.2 is not within 0.05 of 3.0 ($approx)"),
        ("q", "$contains", '"sun" does not contain "rain" ($contains)'),
        ("unit", "$in", '"K" is none of ["C", "F"] ($in)'),
        ("day", None, 'missing (expected "mon")'),
        ("x", None, "not expected (got 1)"),
    ]


@pytest.mark.parametrize(
    ("args", "where", "says"),
    [
        ({"city": {"$regex": "(Lon"}}, ["city", "$regex"], "invalid regular expression"),
        ({"city": {"$regex": 5}}, ["city", "$regex"], "takes a string"),
        ({"t": {"$approx": "3"}}, ["t", "$approx"], "finite number"),
        ({"t": {"$approx": 3, "tol": -1}}, ["t", "tol"], "number >= 0"),
        ({"t": {"$approx": 3, "tolerance": 1}}, ["t", "tolerance"], "$approx takes tol"),
        ({"q": {"$contains": ["a"]}}, ["q", "$contains"], "takes a string"),
        ({"u": {"$in": []}}, ["u", "$in"], "non-empty list"),
        ({"u": {"$in": [{"$regex": "("}]}}, ["u", "$in", 0, "$regex"], "invalid regular"),
        ({"o": {"$subset": [1]}}, ["o", "$subset"], "takes an object"),
        ({"a": {"$any": False}}, ["a", "$any"], "takes true"),
        ({"a": {"$regex": "x", "$options": "i"}}, ["a", "$options"], "unknown key"),
        ({"a": {"$regex": "x", "$any": True}}, ["a"], "one matcher per object"),
        ({"$regex": "x"}, ["$regex"], "whole args object takes $subset"),
        ({"deep": [{"x": {"$in": "a"}}]}, ["deep", 0, "x", "$in"], "non-empty list"),
    ],
)
def test_problems_are_named_with_their_place(
    args: dict[str, Any], where: list[str | int], says: str
) -> None:
    ((path, message),) = matcher_problems(args)
    assert path == where
    assert says in message
    with pytest.raises(MatcherError, match=r"unknown key|invalid|takes|one matcher|whole"):
        compile_args(args)


def test_every_problem_is_found_not_just_the_first() -> None:
    found = matcher_problems({"a": {"$regex": "("}, "b": {"$in": 3}, "c": "fine"})
    assert [path for path, _ in found] == [["a", "$regex"], ["b", "$in"]]


def test_args_without_dollar_keys_have_no_problems() -> None:
    assert matcher_problems({"city": "Paris", "n": [1, {"k": "v"}]}) == []


def test_other_dollar_keys_are_values_compared_as_written_and_named_as_such() -> None:
    from tenxeval_tui.evaluation.dataset.arg_matchers import literal_dollar_keys

    args = {"filter": {"$gt": 3}, "schema": [{"$ref": "#/a"}], "city": {"$regx": "^Lon"}}
    assert matcher_problems(args) == []
    assert fits(
        args, {"filter": {"$gt": 3}, "schema": [{"$ref": "#/a"}], "city": {"$regx": "^Lon"}}
    )
    assert not fits(args, {"filter": 4, "schema": [{"$ref": "#/a"}], "city": "London"})
    assert [path for path, _ in literal_dollar_keys(args)] == [
        ["filter", "$gt"],
        ["schema", 0, "$ref"],
        ["city", "$regx"],
    ]
    assert "'$regx' is no matcher" in literal_dollar_keys(args)[2][1]
    assert literal_dollar_keys({"f": {"$eq": {"$gt": 3}}}) == []  # said to be literal


def test_a_case_with_a_bad_matcher_or_rule_is_refused_when_built() -> None:
    from pydantic import ValidationError

    from tenxeval_tui.evaluation import EvalCase, ToolCall

    with pytest.raises(
        ValidationError,
        match=r"expected_tool_trajectory\[1\]\.args\.city\.\$regex: invalid regular",
    ):
        EvalCase.single_turn(
            "c",
            "q",
            expected_tools=[ToolCall(name="a"), ToolCall(name="b", args={"city": {"$regex": "("}})],
        )
    with pytest.raises(ValidationError, match=r"trajectory_rules\.max_steps: max_steps must"):
        EvalCase.single_turn("c", "q", metadata={"trajectory_rules": {"max_steps": -2}})


def test_a_file_names_the_place_of_each_problem_adk_tool_uses_included(tmp_path: Any) -> None:
    import json

    from tenxeval_tui.evaluation import EvalFileError, EvalSet

    turn = {
        "invocation_id": "i",
        "user_content": {"role": "user", "parts": [{"text": "hi"}]},
        "intermediate_data": {"tool_uses": [{"name": "t", "args": {"q": {"$in": "x"}}}]},
    }
    data = {"eval_set_id": "adk", "eval_cases": [{"eval_id": "a", "conversation": [turn]}]}
    path = tmp_path / "adk.evalset.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(EvalFileError) as info:
        EvalSet.from_file(path)
    (problem,) = info.value.problems
    assert problem.json_path == (
        "eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args.q.$in"
    )
    assert problem.message == "$in takes a non-empty list of values"
    text = path.read_text()
    offset = text.index('"x"')
    assert (problem.line, problem.column) == (
        text.count("\n", 0, offset) + 1,
        offset - text.rfind("\n", 0, offset),
    )
