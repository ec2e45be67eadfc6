"""The labels schema (``tenxeval-tui schema labels``) describes the lines the review mode
really writes, and refuses the lines the labels reader refuses."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tenxeval_tui.browsing.labels import KEYS, Label, parse_label, read_labels
from tenxeval_tui.browsing.review_queue import QueueFilter
from tenxeval_tui.browsing.review_session import ReviewSession
from tenxeval_tui.browsing.verdicts import read_verdicts
from tenxeval_tui.evaluation.schemas import shipped_schema_text
from tenxeval_tui.evaluation.schemas.label_line import LabelLine
from tests.browsing.label_samples import judged_report, write_report


@pytest.fixture(scope="module")
def schema() -> Draft202012Validator:
    return Draft202012Validator(json.loads(shipped_schema_text("labels")))


def test_the_label_the_module_writes_has_the_line_models_keys_in_order() -> None:
    assert tuple(LabelLine.model_fields) == KEYS
    assert tuple(field.name for field in dataclasses.fields(Label)) == KEYS
    assert json.loads(shipped_schema_text("labels"))["required"] == list(KEYS)


def test_every_line_a_review_session_writes_validates(
    tmp_path: Path, schema: Draft202012Validator
) -> None:
    report = read_verdicts(write_report(tmp_path, judged_report([True, False, True])))
    path = tmp_path / "weather.labels.jsonl"
    # whole-case labels, then per-criterion ones: pass and fail, with and without a note
    whole_cases = ReviewSession(report, read_labels(path), "alice")
    whole_cases.give("pass")
    assert whole_cases.step(1)
    whole_cases.give("fail", "wrong city")
    by_criterion = ReviewSession(report, read_labels(path), "bob", QueueFilter(per_criterion=True))
    given = 2
    while True:
        by_criterion.give("fail" if given % 2 else "pass", "ünïcode ✓" if given % 3 else None)
        given += 1
        if not by_criterion.step(1):
            break
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == given > 4
    assert {json.loads(line)["criterion"] is None for line in lines} == {True, False}
    for line in lines:
        document = json.loads(line)
        assert list(document) == list(KEYS)  # written in the schema's order
        assert [error.message for error in schema.iter_errors(document)] == [], line
        LabelLine.model_validate(document)
    assert read_labels(path).problems == []


# A line the review mode wrote, and changes to it: the schema must answer as the reader does.
_LINE = {
    "eval_id": "c01",
    "criterion": "factual_accuracy_v1",
    "label": "fail",
    "reviewer": "alice",
    "report": "weather-agent_20260520_142301.json",
    "reply_sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "note": "wrong city",
    "time": "2026-05-20T14:30:02Z",
}


def _without(key: str) -> dict[str, Any]:
    return {name: value for name, value in _LINE.items() if name != key}


LINES: list[tuple[str, Any, bool]] = [
    ("as written", _LINE, True),
    ("a whole-case label", {**_LINE, "criterion": None}, True),
    ("no note", {**_LINE, "note": None}, True),
    ("no report", {**_LINE, "report": None}, True),
    ("a time with an offset", {**_LINE, "time": "2026-05-20T14:30:02+02:00"}, True),
    ("a key of a later version", {**_LINE, "source": "import"}, True),
    ("a verdict not pass or fail", {**_LINE, "label": "maybe"}, False),
    ("no criterion key", _without("criterion"), False),
    ("no reviewer", _without("reviewer"), False),
    ("an empty reviewer", {**_LINE, "reviewer": ""}, False),
    ("an empty eval_id", {**_LINE, "eval_id": ""}, False),
    ("a number as eval_id", {**_LINE, "eval_id": 7}, False),
    ("an upper-case hash", {**_LINE, "reply_sha256": _LINE["reply_sha256"].upper()}, False),
    ("a short hash", {**_LINE, "reply_sha256": "9f86d0"}, False),
    ("a time in words", {**_LINE, "time": "yesterday"}, False),
    ("a note not text", {**_LINE, "note": ["wrong", "city"]}, False),
    ("not an object", [_LINE], False),
]


def _reader_takes(document: Any) -> bool:
    try:
        parse_label(json.dumps(document))
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("name", "document", "taken"), LINES, ids=[line[0] for line in LINES])
def test_the_schema_takes_a_line_exactly_when_the_reader_does(
    name: str, document: Any, taken: bool, schema: Draft202012Validator
) -> None:
    assert _reader_takes(document) is taken, "the table is wrong about the reader"
    assert schema.is_valid(document) is taken
