"""Keys nothing reads are found with their place and the nearest known name; the keys
10xGraph's own files hold are all known."""

from __future__ import annotations

import json
from pathlib import Path

import tenxgraph.qa.evaluation as tx

from tenxeval_tui.evaluation import EvalConfig, EvalSet
from tenxeval_tui.evaluation.unknown_keys import unknown_key_problems, unknown_keys
from tests.evaluation.test_tenxgraph_files import ADK_EVALSET

TYPOS = {
    "eval_set_id": "s",
    "eval_cases": [
        {
            "eval_id": "a",
            "tagz": ["smoke"],
            "conversation": [
                {
                    "user_content": {"role": "user", "content": "Weather?"},
                    "expected_tool_use": [{"name": "get_weather"}],
                    "expected_tool_trajectory": [{"name": "get_weather", "argz": {"city": "x"}}],
                }
            ],
            "metadata": {"anything": "is free-form"},
        }
    ],
}


def test_typos_in_an_eval_set_are_found_with_the_nearest_known_name() -> None:
    found = [(item.path, item.suggestion) for item in unknown_keys(TYPOS)]
    assert found == [
        (("eval_cases", 0, "tagz"), "tags"),
        (("eval_cases", 0, "conversation", 0, "expected_tool_use"), "expected_tool_trajectory"),
        (
            ("eval_cases", 0, "conversation", 0, "expected_tool_trajectory", 0, "argz"),
            "args",
        ),
    ]


def test_each_is_a_warning_at_its_keys_line_and_column() -> None:
    text = json.dumps(TYPOS, indent=2)
    problems = unknown_key_problems("t.evalset.json", text, TYPOS)
    first = problems[0]
    line = text.splitlines()[first.line - 1]
    assert line[first.column - 1 :].startswith('"tagz"')
    assert str(first) == (
        f"t.evalset.json:{first.line}:{first.column}: eval_cases[0]: "
        "warning: unknown key 'tagz' (nothing reads it); did you mean tags?"
    )
    assert "did you mean expected_tool_trajectory?" in problems[1].message


def test_a_criterions_unknown_setting_is_found() -> None:
    config = {
        "criteria": {
            "tool_trajectory_avg_score": {"treshold": 0.5},
            "custom": {"mine": {"no_such_option": 1}},
        },
        "paralel": True,
    }
    found = {item.path: item.suggestion for item in unknown_keys(config, EvalConfig)}
    assert found == {
        ("criteria", "tool_trajectory_avg_score", "treshold"): "threshold",
        ("criteria", "custom", "mine", "no_such_option"): None,
        ("paralel",): "parallel",
    }


def test_the_files_10xgraph_writes_hold_no_unknown_key(tmp_path: Path) -> None:
    path = tmp_path / "theirs.evalset.json"
    (
        tx.EvalSetBuilder("weather")
        .add_case(
            query="Weather in Tokyo?",
            expected="Raining.",
            expected_tools=[tx.ToolCall(name="get_weather", args={"location": "Tokyo"})],
        )
        .add_multi_turn(conversation=[("Hello", "Hi!"), ("Paris?", "18C")])
        .build()
        .to_file(str(path))
    )
    assert unknown_keys(json.loads(path.read_text())) == []
    config = tmp_path / "config.json"
    tx.EvalConfig.strict().to_file(str(config))
    assert unknown_keys(json.loads(config.read_text()), EvalConfig) == []


def test_a_google_adk_eval_set_holds_no_unknown_key() -> None:
    assert unknown_keys(ADK_EVALSET) == []


def test_unknown_keys_survive_a_save(tmp_path: Path) -> None:
    path = tmp_path / "t.evalset.json"
    path.write_text(json.dumps(TYPOS))
    EvalSet.from_file(path).to_file(path)
    assert {item.path for item in unknown_keys(json.loads(path.read_text()))} == {
        item.path for item in unknown_keys(TYPOS)
    }


def test_a_schema_key_at_the_top_of_a_file_is_known_and_nowhere_else() -> None:
    """``$schema`` (written by ``tenxeval-tui schema`` users for their editor) is no typo at
    the top of an eval set or config; inside a case it is one."""
    data = {"$schema": "./evalset.schema.json", **TYPOS}
    data["eval_cases"] = [{**TYPOS["eval_cases"][0], "$schema": "x"}]  # type: ignore[index]
    paths = [item.path for item in unknown_keys(data)]
    assert ("$schema",) not in paths
    assert ("eval_cases", 0, "$schema") in paths
    config = {"$schema": "./config.schema.json", "criteria": {}}
    assert unknown_keys(config, EvalConfig) == []
