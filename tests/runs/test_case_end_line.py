"""The worker's ``case_end`` line: pydantic's JSON, read back as the old ``json.dumps`` line."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult
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
