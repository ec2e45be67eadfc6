"""The worker's ``case_end`` line: pydantic's JSON, read back as the old ``json.dumps`` line."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from tenxeval_tui.evaluation import observers
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
from tenxeval_tui.evaluation.observers import RunObserver, replay_json_lines
from tenxeval_tui.evaluation.stats import RepeatStats
from tenxeval_tui.evaluation.token_usage import TokenUsage
from tenxeval_tui.runs.worker import BULKY_RESULT_FIELDS, LeanJsonLinesObserver

NAN, INF = math.nan, math.inf


def old_line(result: EvalCaseResult) -> str:
    """The line as the worker wrote it before (model_dump + the observers' encoder)."""
    lean = result.model_dump(mode="json", exclude=set(BULKY_RESULT_FIELDS))
    return json.JSONEncoder(default=str).encode({"type": "case_end", "result": lean}) + "\n"


def line_of(result: EvalCaseResult) -> str:
    written: list[str] = []
    LeanJsonLinesObserver(written.append).on_case_end(result)
    [line] = written
    return line


def read_back(line: str) -> str:
    """What a reader gets from ``line``, re-encoded: NaN-aware, key order included."""
    return json.dumps(json.loads(line))


def hostile(text: str) -> EvalCaseResult:
    """A result with ``text`` everywhere, nested models, extras, untyped values."""
    repeat = EvalCaseResult.model_validate({"eval_id": "e", "passed": False, "repeat_index": 1})
    result = EvalCaseResult(
        eval_id="e\u00e9",
        name=text,
        passed=False,
        criterion_results=[
            CriterionResult(
                criterion="c",
                score=0.1,
                passed=False,
                threshold=-1e-300,
                details={"nested": [{"x": 1e16, "y": [2**70, 0.1]}], "why": text},
            )
        ],
        actual_response=text,
        messages=[{"role": "user", "content": text, "x": NAN}],  # left out of the line
        duration_seconds=1e-7,
        error=text,
        metadata={"eval_set_id": "s", "deep": {"list": [1, 2.5, None, text]}, text: "key"},
        turn_results=[{"t": text}],
        cost_usd=123456789.125,
        repeat_results=[repeat],
        repeat_stats=RepeatStats(repeats=1, passed_repeats=0, pass_rate=0.5, pass_at_k=[1.0]),
    )
    # An extra, set as an agent might (model_validate would make the model a dict):
    result.an_extra = {"nested": [text, {"k": 2**70}], "usage": TokenUsage(input_tokens=3)}  # type: ignore[attr-defined]
    return result


@pytest.mark.parametrize("text", ["plain", "caf\u00e9 \U0001f600 \u2028", 'quo"te\\ \x00\n\x7f'])
def test_the_line_is_read_back_as_the_old_one_and_made_without_model_dump(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = hostile(text)
    expected = old_line(result)

    def no_dump(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the line went through model_dump")

    monkeypatch.setattr(EvalCaseResult, "model_dump", no_dump)
    line = line_of(result)
    assert line.endswith("}\n") and line.count("\n") == 1
    assert line.isascii()
    assert read_back(line) == read_back(expected)


def _in_duration(result: EvalCaseResult, value: float) -> None:
    result.duration_seconds = value


def _in_a_threshold(result: EvalCaseResult, value: float) -> None:
    result.criterion_results[0].threshold = value


def _in_a_repeat(result: EvalCaseResult, value: float) -> None:
    assert result.repeat_results is not None
    result.repeat_results[0].cost_usd = value


def _in_repeat_stats(result: EvalCaseResult, value: float) -> None:
    assert result.repeat_stats is not None
    result.repeat_stats.pass_at_k.append(value)


def _in_metadata(result: EvalCaseResult, value: float) -> None:
    result.metadata["plain"] = value


def _in_a_model_in_an_extra(result: EvalCaseResult, value: float) -> None:
    stats = RepeatStats(repeats=1, passed_repeats=1, pass_rate=value)
    result.an_extra = {"stats": stats}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "put",
    [
        _in_duration,
        _in_a_threshold,
        _in_a_repeat,
        _in_repeat_stats,
        _in_metadata,
        _in_a_model_in_an_extra,
    ],
)
@pytest.mark.parametrize("value", [NAN, INF, -INF])
def test_a_non_finite_float_is_read_back_as_before(
    put: Callable[[EvalCaseResult, float], None], value: float
) -> None:
    result = hostile("x")
    put(result, value)
    assert read_back(line_of(result)) == read_back(old_line(result))


def test_a_lone_surrogate_reaches_the_reader_as_before() -> None:
    result = hostile("bad \ud83d and \udcff")
    line = line_of(result)
    assert line == old_line(result)
    assert json.loads(line)["result"]["actual_response"] == "bad \ud83d and \udcff"


class NotedResult(EvalCaseResult):
    note: str = "kept"


def test_a_result_subclass_s_line_holds_its_own_fields() -> None:
    result = NotedResult(eval_id="n", passed=True, note="its own")
    assert read_back(line_of(result)) == read_back(old_line(result))
    assert json.loads(line_of(result))["result"]["note"] == "its own"


class _Ended(RunObserver):
    def __init__(self) -> None:
        self.results: list[EvalCaseResult] = []

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.results.append(result)


def replayed(line: str) -> list[EvalCaseResult]:
    """What a reader of the worker's lines (``replay_json_lines``) hands its observer."""
    seen = _Ended()
    used = replay_json_lines([line], seen)
    assert used == len(seen.results)
    return seen.results


def read_as_json(line: str) -> list[EvalCaseResult]:
    """What the reader made of ``line`` before: ``json.loads``, then the result validated
    (a line that is not JSON, not a case_end or not a result skipped)."""
    try:
        data = json.loads(line)
        if data.get("type") != "case_end":
            return []
        return [EvalCaseResult.model_validate(data["result"])]
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


@pytest.mark.parametrize("text", ["plain", "caf\u00e9 \U0001f600 \u2028", 'quo"te\\ \x00\n\x7f'])
@pytest.mark.parametrize("put", [None, _in_duration, _in_a_repeat, _in_metadata])
def test_a_case_end_line_is_read_back_as_json_loads_read_it(
    text: str, put: Callable[[EvalCaseResult, float], None] | None
) -> None:
    result = hostile(text)
    if put is not None:
        put(result, NAN)
    for line in (line_of(result), old_line(result)):
        (made,) = replayed(line)
        (before,) = read_as_json(line)
        assert repr(made) == repr(before)  # every field and extra (NaN shown as nan)
        assert made.model_fields_set == before.model_fields_set


def test_a_case_end_line_with_a_lone_surrogate_is_read_back_as_before() -> None:
    line = line_of(hostile("bad \ud83d and \udcff"))
    (made,) = replayed(line)
    assert repr(made) == repr(read_as_json(line)[0])


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}} \t\r\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}, "more": 1}\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}, "type": "run_end"}\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}} junk\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}}\x85\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": "maybe"}}\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true}\n',
        '{"type": "case_end", "result": [1]}\n',
        '{"type": "case_end", "result": {"eval_id": "x", "passed": true, "duration_seconds": NaN}}',
    ],
)
def test_other_case_end_lines_are_read_or_skipped_as_before(line: str) -> None:
    assert [repr(r) for r in replayed(line)] == [repr(r) for r in read_as_json(line)]


def test_a_workers_case_end_line_is_validated_from_its_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # json.loads made a tree of dicts only for pydantic to walk: a fifth of the line's
    # read in the run's parent, which reads one a case (issue #38).
    line = line_of(hostile("plain"))
    loads = json.loads
    parsed: list[str] = []

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(text)
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(observers.json, "loads", counted)
    (made,) = replayed(line)
    assert made.eval_id == "e\u00e9"
    assert parsed == []
