"""Argument matchers and trajectory rules through the console script's entry point in-process:
`validate` places each bad matcher or rule at its line and column, and `run` scores with them
and explains."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports


def write_set(project: Path, cases: list[dict[str, Any]], name: str = "m") -> Path:
    path = project / "evals" / f"{name}.evalset.json"
    path.write_text(json.dumps({"eval_set_id": name, "eval_cases": cases}, indent=2) + "\n")
    return path


def order_case(eval_id: str, message: str, args: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "user_content": {"role": "user", "content": message},
                "expected_tool_trajectory": [{"name": "lookup_order", "args": args}],
            }
        ],
        "metadata": metadata,
    }


def place_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first ``needle`` in ``text``."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


def test_validate_places_every_bad_matcher_and_rule(project: Path, in_process: InProcess) -> None:
    path = write_set(
        project,
        [
            order_case("a", "Where is A100?", {"order_id": {"$regex": "^(A1"}}),
            order_case(
                "b",
                "Where is A200?",
                {"order_id": {"$approx": 1, "tol": "wide"}, "x": {"$regx": "y"}},
                trajectory_rules={"max_calls": {"refund": -1}},
            ),
        ],
    )
    done = in_process(project, "validate", "evals")
    assert done.returncode == 1
    text = path.read_text()
    lines = [line for line in done.stdout.splitlines() if line.startswith("evals/m.evalset.json")]
    expected = [
        (place_of(text, '"^(A1"'), ".args.order_id.$regex: invalid regular expression"),
        (place_of(text, '"wide"'), ".args.order_id.tol: tol takes a number >= 0"),
        (place_of(text, "-1"), "metadata.trajectory_rules.max_calls.refund: max_calls of 'refund'"),
    ]
    assert len(lines) == len(expected), done.stdout
    for line, ((row, column), says) in zip(lines, expected, strict=True):
        assert line.startswith(f"evals/m.evalset.json:{row}:{column}: eval_cases["), line
        assert says in line, line
    assert "evals/plain.evalset.json: ok" in done.stdout
    # An object keyed by something that is no matcher is a value as it was: a warning only.
    assert "'$regx' is no matcher" not in done.stdout  # a file with problems stops there


def test_a_dollar_key_that_is_no_matcher_is_a_warning_and_compared_as_written(
    project: Path, in_process: InProcess
) -> None:
    path = write_set(
        project, [order_case("a", "Where is order A100?", {"order_id": {"$regx": "^A1"}})]
    )
    done = in_process(project, "validate", "evals")
    assert done.returncode == 0, done.stdout
    row, column = place_of(path.read_text(), '"^A1"')
    assert (
        f"evals/m.evalset.json:{row}:{column}: eval_cases[0].conversation[0]"
        ".expected_tool_trajectory[0].args.order_id.$regx: warning: '$regx' is no matcher"
    ) in done.stdout
    assert "evals/m.evalset.json: ok" not in done.stdout
    assert "evals/plain.evalset.json: ok" in done.stdout
    config = project / "config.json"
    config.write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": {"check_args": True}}}))
    ran = in_process(project, "run", "--agent", AGENT, "evals/m.evalset.json", "--config", str(config),
              "--output-dir", "out")  # fmt: skip
    assert ran.returncode == 1
    (report,) = reports(project / "out")
    (result,) = json.loads(report.read_text())["results"]
    (mismatch,) = result["criterion_results"][0]["details"]["mismatches"]
    assert mismatch["args"] == [{"arg": "order_id", "problem": '"A100" is not {"$regx": "^A1"}'}]


def test_run_scores_with_matchers_and_rules_and_explains_the_failures(
    project: Path, in_process: InProcess
) -> None:
    write_set(
        project,
        [
            order_case("matches", "Where is order A100?", {"order_id": {"$regex": "^A1\\d\\d$"}}),
            order_case(
                "wrong_arg", "Where is order A200?", {"order_id": {"$in": ["A100", "A300"]}}
            ),
            order_case(
                "forbidden",
                "I want a refund for order A100",
                {"$subset": {}},
                trajectory_rules={"forbidden_tools": ["refund"]},
            ),
        ],
    )
    config = project / "config.json"
    config.write_text(
        json.dumps(
            {
                "criteria": {
                    "tool_trajectory_avg_score": {"match_type": "IN_ORDER", "check_args": True}
                }
            }
        )
    )
    done = in_process(
        project, "run", "--agent", AGENT, "evals/m.evalset.json", "--config", str(config),
        "--output-dir", "out",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    (report,) = reports(project / "out")
    results = {r["eval_id"]: r for r in json.loads(report.read_text())["results"]}
    trajectory = {
        eval_id: next(
            c for c in r["criterion_results"] if c["criterion"] == "tool_trajectory_avg_score"
        )
        for eval_id, r in results.items()
    }
    assert trajectory["matches"]["passed"] is True
    assert trajectory["matches"]["details"]["matched_calls"] == [0]
    wrong = trajectory["wrong_arg"]
    assert (wrong["passed"], wrong["details"]["matched_calls"]) == (False, [None])
    assert wrong["details"]["mismatches"] == [
        {
            "expected": 0,
            "closest": 0,
            "args": [
                {
                    "arg": "order_id",
                    "matcher": "$in",
                    "problem": '"A200" is none of ["A100", "A300"] ($in)',
                }
            ],
        }
    ]
    forbidden = trajectory["forbidden"]
    # The refund call is no lookup_order call, and it is forbidden: both are said.
    assert forbidden["score"] == 0.0
    assert forbidden["details"]["rule_failures"] == [
        {"rule": "forbidden_tools", "message": "call #1 refund is a forbidden tool", "call": 0}
    ]
    assert (
        "rule forbidden_tools: call #1 refund is a forbidden tool" in forbidden["details"]["reason"]
    )
