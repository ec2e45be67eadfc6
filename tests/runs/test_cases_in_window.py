"""The worker's scan of an eval set at its cost (issue #38): the cases lying whole in the
read window decoded one after the other without the window's per-item steps
(runs/json_stream.py), and each scanned case checked as a shell made without pydantic's
``model_copy`` (runs/case_stream.py); the same items, errors and checks as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.runs import json_stream
from tenxeval_tui.runs.case_stream import scan_eval_set
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, eval_set_items


def _items(path: Path) -> list[tuple[Any, Any]]:
    with path.open("rb") as handle:
        return list(eval_set_items(handle))


def _cases(count: int) -> list[dict[str, Any]]:
    return [
        {"eval_id": f"c{i}", "metadata": {"n": i, "f": [1.5, None, True]}} for i in range(count)
    ]


def test_the_cases_whole_in_the_window_are_read_without_its_per_item_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.evalset.json"
    cases = _cases(200)
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": cases}), encoding="utf-8")
    values = 0
    value = json_stream._Window.value

    def counted(self: Any) -> Any:
        nonlocal values
        values += 1
        return value(self)

    monkeypatch.setattr(json_stream._Window, "value", counted)
    assert [v for k, v in _items(path) if k is CASE] == cases
    assert values < 10  # the key, its value, the first case: not one a case


@pytest.mark.parametrize("chunk", [1, 5, 64, 333, 1 << 20])
@pytest.mark.parametrize("space", ["", " ", "\n  ", "\t\r\n"])
def test_the_cases_are_the_json_module_s_at_any_window_and_spacing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, space: str
) -> None:
    monkeypatch.setattr(json_stream, "_CHUNK", chunk)
    cases: list[Any] = [*_cases(20), 7, "text", [1, [2]], 12345678901234567890, False]
    body = (space + "," + space).join(json.dumps(case) for case in cases)
    path = tmp_path / "s.evalset.json"
    text = '{"eval_set_id": "s", "eval_cases": [' + space + body + space + '], "z": 1}'
    path.write_text(text, encoding="utf-8")
    items = _items(path)
    assert [v for k, v in items if k is CASE] == cases
    assert [(k, v) for k, v in items if k is not CASE] == [("eval_set_id", "s"), ("z", 1)]


@pytest.mark.parametrize(
    "later",
    ['{"eval_id": "x", "m": NaN}', '{"eval_id": "x"', "}", "", '{"eval_id": "x"} {"a": 1}'],
)
def test_a_later_case_that_is_not_json_is_not_streamable(tmp_path: Path, later: str) -> None:
    body = ", ".join(json.dumps(case) for case in _cases(30))
    path = tmp_path / "bad.evalset.json"
    path.write_text('{"eval_set_id": "s", "eval_cases": [' + body + ", " + later + "]}")
    with pytest.raises(NotStreamable):
        _items(path)


def test_the_scan_checks_each_case_as_model_copy_would_make_it_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = [{"eval_id": "a"}, {"eval_id": "b", "metadata": {"repeats": 3}}]
    path = tmp_path / "s.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": cases}), encoding="utf-8")
    shell = EvalCase.model_construct(eval_id="")
    expected = [
        shell.model_copy(update={"eval_id": "a", "metadata": {}}),
        shell.model_copy(update={"eval_id": "b", "metadata": {"repeats": 3}}),
    ]
    seen: list[EvalCase] = []

    def check(eval_set: EvalSet, case: EvalCase) -> None:
        seen.append(case)

    def no_copy(self: Any, **kwargs: Any) -> Any:
        raise AssertionError("model_copy for each case")

    monkeypatch.setattr(EvalCase, "model_copy", no_copy)
    assert scan_eval_set(path, check) is not None
    assert seen == expected
    for case, want in zip(seen, expected, strict=True):
        assert case.model_fields_set == want.model_fields_set
        assert case.model_extra == want.model_extra
        assert case.model_dump() == want.model_dump()
    assert seen[0] is not seen[1] and seen[0].metadata is not seen[1].metadata
