"""The tools dialog's model: a ``metadata.tools`` section read into form texts and made
back from them, every problem named by its field through the run's own rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.authoring.case_problems import tools_problem
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.authoring.tool_section import (
    SECTION_PROBLEM,
    EndStateRow,
    FakeRow,
    FaultRow,
    SectionShapeError,
    ToolSectionTexts,
    section_from_texts,
    section_texts,
    with_section,
)
from tenxeval_tui.evaluation import EvalSetBuilder

SECTION: dict[str, Any] = {
    "fakes": {"refund": "sample_evals.support_fakes:refund"},
    "state": {"refunds": []},
    "faults": [
        {"tool": "lookup_order", "raises": "ConnectionError", "message": "down"},
        {"tool": "lookup_order", "call": 2, "timeout": True},
        {"tool": "refund", "call": 1, "returns": {"error": "quota"}},
    ],
    "ignore_args": ["timestamp", "search.request_id"],
    "redact": ["sk-[A-Za-z0-9]{20,}"],
    "end_state": {"$.refunds[*].order_id": ["A100"]},
}


def test_a_section_read_and_made_back_unchanged_is_the_same_json_in_the_same_order() -> None:
    before = {"end_state": SECTION["end_state"], **{k: v for k, v in SECTION.items()}}
    texts = section_texts(before)
    assert texts.faults[0] == FaultRow("lookup_order", "1", "raises", "ConnectionError", "down")
    assert texts.faults[2].kind == "returns" and texts.faults[2].value == '{"error": "quota"}'
    assert texts.ignore_args == "timestamp, search.request_id"
    section, problems = section_from_texts(texts, before)
    assert problems == {}
    # A fault that left its call out (the first) keeps it out; the key order is the file's.
    assert json.dumps(section) == json.dumps(before)


def test_a_new_section_writes_only_what_was_filled_in_the_set_order() -> None:
    texts = ToolSectionTexts(
        end_state=(EndStateRow("$.refunds.`len`", "1"),),
        faults=(FaultRow("lookup_order", "2", "returns", "null"),),
    )
    section, problems = section_from_texts(texts)
    assert problems == {}
    assert section == {
        "faults": [{"tool": "lookup_order", "call": 2, "returns": None}],
        "end_state": {"$.refunds.`len`": 1},
    }
    assert list(section) == ["faults", "end_state"]
    assert section_from_texts(ToolSectionTexts()) == ({}, {})


def test_each_problem_is_named_by_the_field_that_holds_it() -> None:
    texts = ToolSectionTexts(
        fakes=(FakeRow("refund", "not a spec"), FakeRow("", "m:f"), FakeRow("refund", "m:g")),
        state="[1, 2]",
        faults=(
            FaultRow("lookup_order", "x", "raises", "ConectionError"),
            FaultRow("lookup_order", "1", "returns", "{oops"),
            FaultRow("lookup_order", "1", "explodes"),
            FaultRow("", "0", "raises", "ValueError"),
        ),
        redact="ok\n(unclosed",
        end_state=(EndStateRow("$.[", "1"), EndStateRow("", "")),
    )
    _, problems = section_from_texts(texts)
    assert problems == {
        "fakes.0.fake": "fake of 'refund': 'not a spec' is not module:attr",
        "fakes.1.tool": "the tool's name",
        "fakes.2.tool": "'refund' has a fake already (one a tool)",
        "state": "must be a JSON object ({...})",
        "faults.0.call": "a whole number, 1 or more",
        "faults.0.value": "'ConectionError' is no exception class (a built-in's name, or "
        "module:Class)",
        "faults.1.value": "invalid JSON: Expecting property name enclosed in double quotes "
        "(line 1, column 2)",
        "faults.2.call": "call 1 of 'lookup_order' has a fault already (fault 2)",
        "faults.2.kind": "how it fails: raises, timeout, returns",
        "faults.3.tool": "the tool's name",
        "faults.3.call": "Input should be greater than or equal to 1",
        "redact": "redact pattern '(unclosed': missing ), unterminated subpattern at position 0",
        "end_state.0.path": "end_state path '$.[': Parse error near the end of string!",
        "end_state.1.path": "a JSON path into the fakes' state ($.refunds[0].order_id)",
        "end_state.1.value": "the expected JSON value",
    }
    assert SECTION_PROBLEM not in problems


def test_a_module_class_is_not_imported_to_check_it() -> None:
    # The editor never imports the user's code: module:Class is checked where it runs.
    texts = ToolSectionTexts(faults=(FaultRow("t", "1", "raises", "no_such_module:Boom"),))
    section, problems = section_from_texts(texts)
    assert problems == {}
    assert section["faults"] == [{"tool": "t", "call": 1, "raises": "no_such_module:Boom"}]


def test_rows_are_added_and_removed_and_fields_set_by_key() -> None:
    texts, index = ToolSectionTexts().add_row("faults")
    texts, second = texts.add_row("faults", after=None)
    texts, between = texts.add_row("faults", after=0)
    assert (index, second, between) == (0, 1, 1) and len(texts.faults) == 3
    texts = texts.with_field("faults.1.tool", "search").with_field("state", "{}")
    assert texts.faults[1].tool == "search" and texts.state == "{}"
    texts = texts.remove_row("faults", 0)
    assert texts.faults[0].tool == "search"
    for key in ("faults.5.tool", "faults.0.source", "nope", "fakes.0"):
        with pytest.raises((KeyError, IndexError)):
            texts.with_field(key, "x")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([1], "metadata.tools: must be an object"),
        ({"fakse": {}}, "metadata.tools: unknown key 'fakse'"),
        ({"fakes": ["a"]}, "metadata.tools.fakes: must be an object"),
        ({"faults": [{"tool": "t", "when": 1}]}, "metadata.tools.faults[0]: unknown key 'when'"),
        ({"redact": "x"}, "metadata.tools.redact: must be a list of strings"),
    ],
)
def test_a_section_the_form_cannot_show_says_where(raw: Any, message: str) -> None:
    with pytest.raises(SectionShapeError, match="^" + message.replace("[", r"\[")):
        section_texts(raw)


def test_the_section_goes_into_metadata_keeping_its_other_keys() -> None:
    metadata = {"agent": "m:a", "tools": {"state": {}}}
    assert with_section(metadata, {"faults": []}) == {"agent": "m:a", "tools": {"faults": []}}
    assert with_section(metadata, {}) == {"agent": "m:a"}
    assert metadata == {"agent": "m:a", "tools": {"state": {}}}  # a copy was changed
    assert with_section(None, {}) is None
    assert with_section(None, {"state": {"a": 1}}) == {"tools": {"state": {"a": 1}}}
    assert with_section({}, {}) == {}


def test_a_section_a_run_would_refuse_is_a_located_problem_of_its_holder() -> None:
    assert tools_problem({"metadata": {"tools": SECTION}}) is None
    assert tools_problem({"metadata": {"other": 1}}) is None
    bad = {"metadata": {"tools": {"faults": [{"tool": "t", "call": 2}]}}}
    assert tools_problem(bad) == (
        "metadata.tools.faults[0]: a fault needs exactly one of raises, timeout (true) or returns"
    )
    assert (
        tools_problem({"metadata": {"tools": "x"}}) == "metadata.tools: must be an object, not str"
    )


def test_the_editor_lists_a_bad_section_as_a_problem_and_saves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.evalset.json"
    EvalSetBuilder("w").add_case("q1", "a1", case_id="one").save(path)
    before = path.read_text(encoding="utf-8")
    document = EvalSetDocument.load(path)
    uid = document.cases[0].uid
    document.set_field(uid, "metadata", '{"tools": {"faults": [{"tool": "t"}]}}')
    assert document.field_problems(uid) == {
        "metadata": "metadata.tools.faults[0]: a fault needs exactly one of raises, "
        "timeout (true) or returns"
    }
    assert document.problem_uids() == {uid}
    assert document.problems() == [
        "case #1 'one': metadata: metadata.tools.faults[0]: a fault needs exactly one of "
        "raises, timeout (true) or returns"
    ]
    assert document.save() != [] and path.read_text(encoding="utf-8") == before
    document.set_field(uid, "metadata", '{"tools": {"faults": [{"tool": "t", "timeout": true}]}}')
    assert document.problems() == []
    document.set_header_value("metadata", {"tools": {"fakes": {"t": "no spec"}}})
    assert document.problems() == [
        "eval set: metadata.tools.fakes: fake of 't': 'no spec' is not module:attr"
    ]
    document.undo()
    assert document.save() == []
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["eval_cases"][0]["metadata"]["tools"]["faults"][0]["timeout"] is True
