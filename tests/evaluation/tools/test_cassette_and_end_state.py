"""The cassette file (its lines, where a case's lines go, bad lines) and the
tool_end_state criterion (JSON paths, one place or several)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase
from tenxeval_tui.evaluation.criteria.tool_end_state import ToolEndStateCriterion
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.tools import (
    CassetteError,
    RecordedCall,
    ToolSpecError,
    cassette_path,
    read_cassette,
    write_case,
)
from tenxeval_tui.evaluation.tools.spec import tool_spec


def call(case: str, n: int, order: str = "A1") -> RecordedCall:
    return RecordedCall(case, n, "lookup", {"order_id": order}, {"b": 1, "a": 2}, None, 0.00123)


def test_a_line_has_its_keys_in_a_fixed_order_and_the_results_own() -> None:
    assert call("c", 1).line() == (
        '{"case": "c", "call": 1, "tool": "lookup", "args": {"order_id": "A1"}, '
        '"result": {"b": 1, "a": 2}, "duration": 0.001}'
    )
    failed = RecordedCall("c", 2, "t", {}, None, {"type": "KeyError", "message": "x"})
    assert failed.line() == (
        '{"case": "c", "call": 2, "tool": "t", "args": {}, '
        '"error": {"type": "KeyError", "message": "x"}, "duration": 0.0}'
    )


def test_a_case_recorded_again_keeps_its_place_and_a_new_one_goes_in_set_order(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.tools.jsonl"
    order = ["a", "b", "c"]
    write_case(path, "c", [call("c", 1)], order)
    write_case(path, "a", [call("a", 1), call("a", 2)], order)
    untouched = path.read_text().splitlines()[2]
    write_case(path, "b", [call("b", 1)], order)
    write_case(path, "a", [call("a", 1, "A9")], order)
    lines = path.read_text().splitlines()
    assert [(c.case, c.call) for cs in read_cassette(path).values() for c in cs] == [
        ("a", 1), ("b", 1), ("c", 1)
    ]  # fmt: skip
    assert lines[2] == untouched  # byte for byte
    assert '"A9"' in lines[0]
    write_case(path, "b", [], order)  # a case that made no call keeps no line
    assert list(read_cassette(path)) == ["a", "c"]


def test_a_bad_line_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "s.tools.jsonl"
    path.write_text(call("a", 1).line() + "\n\n" + '{"case": "a", "tool": "t", "args": []}\n')
    with pytest.raises(CassetteError, match=r"s\.tools\.jsonl:3: \"args\" must be an object"):
        read_cassette(path)
    path.write_text("not json\n")
    with pytest.raises(CassetteError, match=r"s\.tools\.jsonl:1: "):
        read_cassette(path)
    assert read_cassette(tmp_path / "missing.tools.jsonl") == {}


def test_the_cassette_sits_beside_its_eval_set() -> None:
    assert cassette_path(Path("e/w.evalset.json")) == Path("e/w.tools.jsonl")
    assert cassette_path(Path("e/w.scenarios.json")) == Path("e/w.scenarios.tools.jsonl")
    assert cassette_path(Path("e/plain.json")) == Path("e/plain.tools.jsonl")


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"faults": [{"tool": "t", "call": 0, "timeout": True}]},
         "metadata.tools.faults[0].call: Input should be greater than or equal to 1"),
        ({"faults": [{"tool": "t", "timeout": True, "returns": 1}]},
         "metadata.tools.faults[0]: a fault needs exactly one of raises, timeout (true) or "
         "returns (has timeout, returns)"),
        ({"fakes": {"t": "no colon"}}, "metadata.tools.fakes: Value error"),
        ({"redact": ["("]}, "metadata.tools.redact: Value error"),
        ({"end_state": {"$..[": 1}}, "metadata.tools.end_state: Value error"),
        ({"fakez": {}}, "metadata.tools.fakez: Extra inputs are not permitted"),
        ([], "metadata.tools: must be an object, not list"),
    ],
)  # fmt: skip
def test_a_bad_tools_section_names_the_place(section: object, message: str) -> None:
    with pytest.raises(ToolSpecError) as caught:
        tool_spec({"tools": section}, "case 'c'")
    assert str(caught.value).startswith(f"case 'c': {message}".split(": Value error")[0])


STATE = {"refunds": [{"order_id": "A1", "amount": 5}, {"order_id": "A2", "amount": 7}]}


def _case(end_state: dict[str, object]) -> EvalCase:
    made = EvalCase.single_turn("c", "q", "")
    made.metadata["tools"] = {"end_state": end_state}
    return made


@pytest.mark.parametrize(
    ("end_state", "score"),
    [
        ({"$.refunds[0].order_id": "A1"}, 1.0),
        ({"$.refunds[*].order_id": ["A1", "A2"]}, 1.0),
        ({"$.refunds.`len`": 2, "$.refunds[1].amount": 7.0}, 1.0),
        ({"$.refunds[?order_id=='A2'].amount": [7]}, 1.0),
        ({"$.refunds[0].order_id": "A2", "$.refunds.`len`": 2}, 0.5),
        ({"$.refunds[5].order_id": None}, 0.0),  # nothing there is not a null there
    ],
)
def test_tool_end_state_scores_the_share_of_paths_that_hold(
    end_state: dict[str, object], score: float
) -> None:
    result = ToolEndStateCriterion().evaluate_sync(
        ExecutionResult(tool_state=STATE), _case(end_state)
    )
    assert result.score == score
    assert result.passed is (score == 1.0)


def test_tool_end_state_without_expectation_or_without_state() -> None:
    criterion = ToolEndStateCriterion()
    assert criterion.evaluate_sync(ExecutionResult(), EvalCase.single_turn("c", "q", "")).score == 1
    missing = criterion.evaluate_sync(ExecutionResult(), _case({"$.x": 1}))
    assert missing.score == 0.0
    assert "kept no state" in missing.reason
