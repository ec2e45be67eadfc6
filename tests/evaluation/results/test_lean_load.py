"""A case result loaded lean from its JSON (evaluation/results/lean_load.py) is the validated one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tenxeval_tui.evaluation import TrajectoryStep
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs
from tenxeval_tui.evaluation.results.lean_load import LEAN_ABOVE, case_result

from .test_node_views import twins


def varied_case(eval_id: str) -> dict[str, Any]:
    """A case as JSON data, with per-event items lean loading takes and ones it must not."""
    _, whole = twins(eval_id, 12)
    whole.actual_trajectory = [
        TrajectoryStep.node("N1", timestamp=1.5, step=3),
        TrajectoryStep.tool("search", {"q": "x"}, timestamp=None, tool_call_id="t1"),
        TrajectoryStep.node("N2"),
    ]
    whole.messages = [{"role": "user", "content": "hi"}]
    data: dict[str, Any] = json.loads(whole.model_dump_json())
    data["actual_trajectory"].append(  # what the lean path leaves to validation
        {"step_type": "node", "name": "N3", "args": {}, "timestamp": 7, "metadata": {}}
    )
    data["actual_trajectory"].append({"step_type": "tool", "name": "x", "extra_key": [1]})
    data["node_details"][0]["token_usage"] = {"input_tokens": "5"}  # coerced by validation
    data["node_details"][1]["surprise"] = True  # an extra field
    return data


def test_a_lean_loaded_case_equals_the_validated_one_and_writes_the_same_json() -> None:
    data = varied_case("c")
    validated = EvalCaseResult.model_validate(json.loads(json.dumps(data)))
    lean = case_result(json.loads(json.dumps(data)))
    assert lean == validated
    assert lean.model_dump_json(indent=2) == validated.model_dump_json(indent=2)
    assert lean.model_fields_set == validated.model_fields_set
    assert lean.actual_trajectory[3].timestamp == 7.0  # an int made a float, as validated
    assert lean.node_details[0].token_usage.input_tokens == 5
    assert lean.node_details[1].model_extra == {"surprise": True}


def test_a_repeated_case_loads_each_repeat_lean_too() -> None:
    first, second = (EvalCaseResult.model_validate(varied_case("r")) for _ in range(2))
    first.metadata["repeat"], second.metadata["repeat"] = 0, 1
    data = json.loads(aggregate_repeats([first, second]).model_dump_json())
    validated = EvalCaseResult.model_validate(json.loads(json.dumps(data)))
    lean = case_result(data)
    assert lean == validated and lean.repeat_results is not None
    assert lean.model_dump_json() == validated.model_dump_json()


def test_what_validation_refuses_lean_loading_refuses() -> None:
    data = varied_case("bad")
    data["actual_trajectory"].append({"step_type": "neither", "name": "x"})
    with pytest.raises(ValidationError):
        EvalCaseResult.model_validate(json.loads(json.dumps(data)))
    with pytest.raises(ValidationError):
        case_result(data)
    data = varied_case("bad")
    data["messages"].append("not a dict")
    with pytest.raises(ValidationError):
        case_result(data)


def test_a_journal_reads_a_line_that_python_json_alone_parses(tmp_path: Path) -> None:
    # A lone surrogate: the journal writes such a case with json.dumps (escaped), which
    # pydantic's parser refuses; the reader falls back to Python's.
    deferred, _ = twins("s", 3)
    deferred.actual_response = "half \ud800 pair"
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(deferred)
    (result,) = read_journal_runs(journal.path)[0].results
    assert result.actual_response == "half \ud800 pair" and len(result.node_details) == 3


def test_a_torn_last_line_is_still_left_out(tmp_path: Path) -> None:
    deferred, _ = twins("t", 3)
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(deferred)
    whole_line = journal.path.read_bytes()
    journal.path.write_bytes(whole_line + whole_line[: len(whole_line) // 2])
    assert [r.eval_id for r in read_journal_runs(journal.path)[0].results] == ["t"]


def test_a_case_given_as_its_json_text_equals_the_validated_one() -> None:
    data = varied_case("j")
    validated = EvalCaseResult.model_validate(json.loads(json.dumps(data)))
    from_text = case_result(json.dumps(data).encode())
    assert from_text == validated
    assert from_text.model_dump_json() == validated.model_dump_json()
    assert from_text.model_fields_set == validated.model_fields_set


def test_a_long_json_text_is_read_lean_and_equals_the_validated_one() -> None:
    data = varied_case("long")
    data["node_details"] *= 400  # past LEAN_ABOVE as text
    text = json.dumps(data).encode()
    assert len(text) > LEAN_ABOVE
    loaded = case_result(text)
    assert loaded == EvalCaseResult.model_validate(json.loads(text))
    # Lean: the per-event models are made from the parsed dicts, with the node names shared.
    assert loaded.node_details[0].node_name is loaded.node_details[12].node_name


def test_a_json_text_that_validation_refuses_is_refused() -> None:
    data = varied_case("bad")
    data["actual_trajectory"].append({"step_type": "neither", "name": "x"})
    with pytest.raises(ValidationError):
        case_result(json.dumps(data).encode())


def _varied_journal(tmp_path: Path, count: int) -> Path:
    journal = RunJournal(tmp_path / "j.jsonl")
    for index in range(count):
        journal.on_case_end(EvalCaseResult.model_validate(varied_case(f"v{index}")))
    return journal.path


def test_a_journal_s_case_lines_read_straight_from_their_text_equal_the_validated_ones(
    tmp_path: Path,
) -> None:
    path = _varied_journal(tmp_path, 3)
    lines = path.read_bytes().splitlines()
    assert all(line.startswith(b'{"type": "case", ') for line in lines)  # the fast path's
    expected = [EvalCaseResult.model_validate(json.loads(line)["result"]) for line in lines]
    assert read_journal_runs(path)[0].results == expected


def test_a_torn_case_line_ending_like_a_whole_one_is_told_as_torn(tmp_path: Path) -> None:
    # A write cut off where the text happens to end as a whole case line ends ("}}"): the
    # reader reads it the usual way, as a line cut short, so a torn line followed by more
    # lines (a resumed run's) stays left out, and the lines after it are read.
    path = _varied_journal(tmp_path, 2)
    first, second = path.read_bytes().splitlines(keepends=True)
    ends = [at + 2 for at in range(len(first) - 3) if first[at : at + 2] == b"}}"]
    assert len(ends) > 3
    for end in ends:
        path.write_bytes(first[:end] + b"\n" + second)
        assert [r.eval_id for r in read_journal_runs(path)[0].results] == ["v1"], end


def test_a_case_line_whose_result_validation_refuses_is_an_error_naming_it(
    tmp_path: Path,
) -> None:
    path = _varied_journal(tmp_path, 2)
    first, second = path.read_bytes().splitlines(keepends=True)
    bad = first.replace(b'"passed":', b'"passed":"maybe","was":', 1)
    path.write_bytes(bad + second)
    with pytest.raises(EvalFileError, match=r"(?s)j\.jsonl:1: not a journal line: .*passed"):
        read_journal_runs(path)
