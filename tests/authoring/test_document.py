"""The editing model: fields, structure, undo/redo, problems and saving."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from tenxeval_tui.authoring.document import EvalSetDocument, JsonFormat
from tenxeval_tui.evaluation import EvalFileError, EvalSet, EvalSetBuilder, ToolCall
from tenxeval_tui.evaluation.files import fileio
from tenxeval_tui.evaluation.files.fileio import gc_paused


@pytest.fixture
def path(tmp_path: Path) -> Path:
    target = tmp_path / "w.evalset.json"
    (
        EvalSetBuilder("w")
        .add_case("q1", "a1", case_id="one", expected_tools=[ToolCall(name="t", args={"x": 1})])
        .add_case("q2", "a2", case_id="two")
        .save(target)
    )
    return target


def uid_of(doc: EvalSetDocument, eval_id: str) -> int:
    return next(c.uid for c in doc.cases if c.eval_id == eval_id)


def test_field_edits_coalesce_into_one_undo_step(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    for text in ["o", "on", "one!"]:
        doc.set_field(uid, "name", text)
    assert doc.case(uid).data["name"] == "one!"
    assert doc.dirty
    doc.undo()
    assert doc.case(uid).data["name"] == ""
    assert not doc.dirty
    doc.redo()
    assert doc.case(uid).data["name"] == "one!"


def test_sealing_starts_a_new_undo_step(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    doc.set_field(uid, "name", "a")
    doc.seal()
    doc.set_field(uid, "name", "ab")
    doc.undo()
    assert doc.case(uid).data["name"] == "a"


def test_undo_redo_across_structure_changes(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    one, two = uid_of(doc, "one"), uid_of(doc, "two")
    new = doc.add_case(after=one)
    copy = doc.duplicate_case(two)
    doc.move_case(two, -1)
    doc.delete_case(one)
    doc.add_turn(copy)
    doc.add_tool_call(copy, 1)
    doc.set_field(copy, "turns.1.tools.0.name", "search")
    assert [c.eval_id for c in doc.cases] == ["two", "case_3", "two_copy"]
    assert doc.case(copy).data["conversation"][1]["expected_tool_trajectory"][0]["name"] == "search"
    snapshots = []
    while doc.can_undo:
        snapshots.append([c.eval_id for c in doc.cases])
        doc.undo()
    assert [c.eval_id for c in doc.cases] == ["one", "two"]
    assert not doc.dirty
    while doc.can_redo:
        doc.redo()
    assert [c.eval_id for c in doc.cases] == ["two", "case_3", "two_copy"]
    assert doc.index_of(new) == 1
    assert len(doc.case(copy).data["conversation"]) == 2


def test_a_new_edit_clears_redo(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    doc.set_field(uid, "name", "x")
    doc.undo()
    doc.set_field(uid, "description", "y")
    assert not doc.can_redo


def test_bad_json_args_become_a_draft_and_a_problem(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    key = "turns.0.tools.0.args"
    doc.set_field(uid, key, '{"x": ')
    assert doc.field_text(uid, key) == '{"x": '
    assert doc.case(uid).data["conversation"][0]["expected_tool_trajectory"][0]["args"] == {"x": 1}
    assert "invalid JSON" in doc.field_problems(uid)[key]
    assert doc.problem_uids() == {uid}
    doc.set_field(uid, key, "[1]")
    assert "JSON object" in doc.field_problems(uid)[key]
    doc.set_field(uid, key, '{"x": 2}')
    assert doc.field_problems(uid) == {}
    assert doc.case(uid).data["conversation"][0]["expected_tool_trajectory"][0]["args"] == {"x": 2}


def test_a_field_set_to_what_it_shows_changes_nothing(tmp_path: Path) -> None:
    # The form sets every field once as it shows a case: a case without session_input
    # or tool args shows defaults ("test_user", {}) that must not be written into it.
    target = tmp_path / "bare.evalset.json"
    turn = {"user_content": {"role": "user", "content": "hi"}}
    turn["expected_tool_trajectory"] = [{"name": "lookup"}]  # type: ignore[list-item]
    target.write_text(
        json.dumps({"eval_set_id": "b", "eval_cases": [{"eval_id": "a", "conversation": [turn]}]})
    )
    doc = EvalSetDocument.load(target)
    uid = uid_of(doc, "a")
    before = json.dumps(doc.case(uid).data)
    for key in ("session.user_id", "session.state", "turns.0.tools.0.args", "tags", "name"):
        assert not doc.set_field(uid, key, doc.field_text(uid, key)), key
    assert json.dumps(doc.case(uid).data) == before and not doc.dirty
    args = "turns.0.tools.0.args"
    assert doc.set_field(uid, args, '{"x": ')  # a draft...
    assert doc.set_field(uid, args, "{}")  # ...typed back to what the field showed
    assert doc.field_problems(uid) == {} and json.dumps(doc.case(uid).data) == before


def test_a_draft_follows_its_tool_call_through_structural_edits(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    typed = '{"x": 1, "y": '  # half typed: a draft, kept until it parses

    def drafts() -> dict[str, str]:
        return {key: text for key, (text, _problem) in doc.case(uid).drafts.items()}

    doc.set_field(uid, "turns.0.tools.0.args", typed)
    doc.add_tool_call(uid, 0)
    assert drafts() == {"turns.0.tools.0.args": typed}
    doc.move_tool_call(uid, 0, 0, 1)
    assert drafts() == {"turns.0.tools.1.args": typed}
    doc.add_turn(uid, after=-1)  # a new first turn
    assert drafts() == {"turns.1.tools.1.args": typed}
    doc.remove_turn(uid, 0)
    assert drafts() == {"turns.0.tools.1.args": typed}
    doc.remove_tool_call(uid, 0, 0)
    assert drafts() == {"turns.0.tools.0.args": typed}
    doc.remove_tool_call(uid, 0, 0)  # its call is gone: so is the draft
    assert drafts() == {}


def test_model_problems_of_a_changed_case_name_its_place_in_the_set(path: Path) -> None:
    from dataclasses import replace

    doc = EvalSetDocument.load(path)
    assert doc.problems() == []
    two = doc.cases[1]
    broken = {**two.data, "conversation": [{"user_content": 5}]}  # no form check catches it
    doc.cases[1] = replace(two, data=broken)
    problems = doc.problems()
    assert problems and all(p.startswith("eval_cases.1.conversation.0") for p in problems)


def test_duplicate_eval_id_marks_both_cases(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    one, two = uid_of(doc, "one"), uid_of(doc, "two")
    doc.set_field(two, "eval_id", "one")
    assert doc.problem_uids() == {one, two}
    assert "duplicate eval_id 'one'" in doc.field_problems(two)["eval_id"]


def test_save_with_problems_writes_nothing(path: Path) -> None:
    before = path.read_text()
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "two"), "eval_id", "one")
    doc.set_field(uid_of(doc, "one"), "metadata", "{nope")
    problems = doc.save()
    assert len(problems) == 3
    assert any("metadata" in p and "invalid JSON" in p for p in problems)
    assert path.read_text() == before
    assert doc.dirty


def test_save_keeps_key_order_indentation_and_unknown_fields(tmp_path: Path) -> None:
    target = tmp_path / "odd.evalset.json"
    text = (
        "{\n"
        '    "name": "odd",\n'
        '    "x_owner": "team",\n'
        '    "eval_cases": [\n'
        "        {\n"
        '            "conversation": [{"user_content": "hi", "x_turn": 1}],\n'
        '            "eval_id": "c1",\n'
        '            "x_priority": 3\n'
        "        }\n"
        "    ],\n"
        '    "eval_set_id": "odd"\n'
        "}"
    )
    target.write_text(text, encoding="utf-8")
    doc = EvalSetDocument.load(target)
    assert doc.format == JsonFormat(indent="    ", trailing_newline=False)
    assert doc.to_text() == text  # nothing changed: the file as it is
    doc.set_field(doc.cases[0].uid, "turns.0.user", "hello")
    assert doc.save() == []
    saved = json.loads(target.read_text())
    assert list(saved) == ["name", "x_owner", "eval_cases", "eval_set_id"]
    assert list(saved["eval_cases"][0]) == ["conversation", "eval_id", "x_priority"]
    assert saved["eval_cases"][0]["conversation"][0] == {"user_content": "hello", "x_turn": 1}
    assert target.read_text().startswith('{\n    "name"')
    assert EvalSet.from_file(target).eval_cases[0].get_user_queries() == ["hello"]


def test_save_keeps_windows_line_endings(path: Path) -> None:
    crlf = path.read_text().replace("\n", "\r\n")
    path.write_bytes(crlf.encode())
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "one"), "name", "multi\nline")  # a break inside a string
    assert doc.save() == []
    saved = path.read_bytes().decode()
    changed = [
        (a, b) for a, b in zip(crlf.split("\r\n"), saved.split("\r\n"), strict=False) if a != b
    ]
    assert saved.count("\r\n") == saved.count("\n")  # every line ends in CRLF
    assert len(changed) == 1 and '"name": "multi\\nline"' in changed[0][1]


HAND_WRITTEN = """{
  "eval_set_id": "hand",
  "name": "Hand written",
  "eval_cases": [
    {"eval_id": "a", "tags": ["x", "y"],
     "conversation": [{"user_content": {"role": "user", "content": "one"}}]},
    {
      "eval_id": "b",
      "tags": ["x"],
      "conversation": [{"user_content": {"role": "user", "content": "two"}}]
    },
    {"eval_id": "c", "conversation": [{"user_content": {"role": "user", "content": "3"}}]}
  ]
}
"""


def test_a_save_rewrites_only_the_cases_that_changed(tmp_path: Path) -> None:
    path = tmp_path / "hand.evalset.json"
    path.write_text(HAND_WRITTEN)
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "b"), "name", "Bee")
    assert doc.save() == []
    saved = path.read_text()
    kept = HAND_WRITTEN.split("\n")
    # a and c keep their own layout; b is written in the file's format, at its place
    assert saved.split("\n")[:6] == kept[:6] and saved.split("\n")[-5:] == kept[-5:]
    assert json.loads(saved) == doc.to_data()
    assert '      "name": "Bee"' in saved.split("\n")
    doc.set_field(uid_of(doc, "c"), "tags", "new")
    assert doc.save() == []
    again = path.read_text()
    before_c = saved.split("\n")[:-4]  # all but c's line and the two closing ones
    assert again.split("\n")[: len(before_c)] == before_c  # b's new text kept as saved
    assert json.loads(again)["eval_cases"][2]["tags"] == ["new"]
    doc.set_header("name", "Renamed")  # a top-level field: the whole file is written
    doc.delete_case(uid_of(doc, "a"))
    assert doc.save() == []
    assert path.read_text() == json.dumps(doc.to_data(), indent=2, ensure_ascii=False) + "\n"


def test_a_case_changed_to_equal_values_of_another_type_is_rewritten(tmp_path: Path) -> None:
    # 1 == True in Python: unchanged cases are told by identity, not by equality
    path = tmp_path / "types.evalset.json"
    turn = {"user_content": {"role": "user", "content": "q"}}
    case = {"eval_id": "a", "conversation": [turn], "metadata": {"n": 1}}
    path.write_text(json.dumps({"eval_set_id": "t", "eval_cases": [case]}, indent=2))
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "a"), "metadata", '{"n": true}')
    assert doc.save() == []
    assert json.loads(path.read_text())["eval_cases"][0]["metadata"] == {"n": True}


def test_atomic_save_failure_leaves_the_old_file(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = path.read_text()
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "one"), "name", "changed")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("tenxeval_tui.evaluation.files.fileio.os.replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        doc.save()
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    assert doc.dirty


def test_a_new_file_is_readable_by_others_and_a_saved_one_keeps_its_mode(path: Path) -> None:
    new = EvalSetDocument.new(path.parent / "fresh.evalset.json")
    new.add_case()
    assert new.save() == []
    assert (path.stat().st_mode & 0o777, new.path.stat().st_mode & 0o777) == (0o644, 0o644)

    path.chmod(0o640)
    doc = EvalSetDocument.load(path)
    doc.set_field(uid_of(doc, "one"), "name", "changed")
    assert doc.save() == []
    assert path.stat().st_mode & 0o777 == 0o640


def test_every_field_round_trips(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "two")
    values = {
        "eval_id": "two-b",
        "name": "Two",
        "description": "line 1\nline 2",
        "tags": "a, b",
        "turns.0.user": "question?",
        "turns.0.expected": "answer.",
        "turns.0.nodes": "agent, tools",
        "session.user_id": "u1",
        "session.state": '{"plan": "pro"}',
        "session.config": '{"temperature": 0}',
        "metadata": '{"context": "c", "reference_facts": ["f"]}',
    }
    for key, text in values.items():
        assert doc.set_field(uid, key, text)
    assert doc.save() == []
    case = EvalSet.from_file(path).get_case("two-b")
    assert case is not None
    assert case.description == "line 1\nline 2"
    assert case.tags == ["a", "b"]
    assert case.get_expected_node_order() == ["agent", "tools"]
    assert case.session_input.state == {"plan": "pro"}
    assert case.session_input.user_id == "u1"
    assert case.metadata["reference_facts"] == ["f"]
    doc.set_field(uid, "turns.0.expected", "")
    assert doc.case(uid).data["conversation"][0]["expected_final_response"] is None


def test_tool_calls_add_move_remove(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    doc.add_tool_call(uid, 0)
    doc.set_field(uid, "turns.0.tools.1.name", "second")
    assert doc.move_tool_call(uid, 0, 1, -1)
    assert not doc.move_tool_call(uid, 0, 0, -1)
    names = [c["name"] for c in doc.case(uid).data["conversation"][0]["expected_tool_trajectory"]]
    assert names == ["second", "t"]
    doc.remove_tool_call(uid, 0, 0)
    names = [c["name"] for c in doc.case(uid).data["conversation"][0]["expected_tool_trajectory"]]
    assert names == ["t"]


def test_new_document_is_unsaved_until_written(tmp_path: Path) -> None:
    target = tmp_path / "new.evalset.json"
    doc = EvalSetDocument.new(target)
    assert doc.dirty and not target.exists()
    assert doc.save() == []
    assert not doc.dirty
    assert EvalSet.from_file(target).name == "new"


def test_gc_pauses_nest_and_restore_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # off before the pause: stays off
    finally:
        gc.enable()


def test_loading_leaves_the_collector_on(tmp_path: Path) -> None:
    path = tmp_path / "x.evalset.json"
    EvalSetBuilder("x").add_case("q", "a").build().to_file(path)
    EvalSetDocument.load(path, validate=False)
    assert gc.isenabled()
    path.write_text("[1]")
    with pytest.raises(EvalFileError):
        EvalSetDocument.load(path, validate=False)
    assert gc.isenabled()


def test_a_freezing_gc_pause_leaves_what_it_built_out_of_collections() -> None:
    try:
        with gc_paused(freeze=True):
            built = [{"case": [index]} for index in range(1000)]
        assert gc.get_freeze_count() > len(built)
        assert gc.isenabled()
        with gc_paused(freeze=True):
            assert gc.get_freeze_count() == 0  # the previous freeze is undone first
    finally:
        gc.unfreeze()


def in_oldest_generation(obj: object) -> bool:
    return any(candidate is obj for candidate in gc.get_objects(generation=2))


def test_a_loaded_file_goes_to_the_oldest_generation_unscanned_and_unfrozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.evalset.json"
    EvalSetBuilder("x").add_case("q", "a").add_case("q2", "a2").build().to_file(path)
    gc.unfreeze()  # as at start-up: nothing frozen by anybody (earlier tests froze)
    monkeypatch.setattr(fileio, "_frozen_since_import", False)

    loaded = EvalSet.from_file(path)

    assert in_oldest_generation(loaded.eval_cases[1])
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def is_frozen(obj: object) -> bool:
    """Whether ``obj`` (tracked by the collector) is in no generation: frozen."""
    return not any(
        candidate is obj for generation in range(3) for candidate in gc.get_objects(generation)
    )


def test_objects_frozen_by_someone_else_stay_frozen_when_a_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "x.evalset.json"
    EvalSetBuilder("x").add_case("q", "a").build().to_file(path)
    theirs = [["someone else's"]]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        loaded = EvalSet.from_file(path)
        # Still frozen (not thawed, even to be frozen again), and nothing of the file
        # frozen with it; the count may fall (a thread of an earlier test in this process
        # freeing a frozen object), never rise.
        assert is_frozen(theirs) and is_frozen(theirs[0])
        assert gc.get_freeze_count() <= frozen
        assert not in_oldest_generation(loaded.eval_cases[0])  # left to the young collections
        assert not is_frozen(loaded.eval_cases[0])
        assert gc.isenabled()
    finally:
        gc.unfreeze()


def test_a_new_eval_set_id_is_a_slug_of_its_file_name(tmp_path: Path) -> None:
    doc = EvalSetDocument.new(tmp_path / "Weather Smoke (EU).evalset.json")
    assert doc.header("eval_set_id") == "weather-smoke-eu"
    assert doc.header("name") == "Weather Smoke (EU)"
    assert doc.agent == ""
    assert EvalSetDocument.new(tmp_path / "!!!.evalset.json").header("eval_set_id") == "eval-set"
    for name, slug in [("Ünïcode Tests!", "unicode-tests"), ("Straße", "strasse")]:
        assert EvalSetDocument.new(tmp_path / f"{name}.evalset.json").header("eval_set_id") == slug
    chosen = EvalSetDocument.new(
        tmp_path / "x.evalset.json", eval_set_id="weather-v2", agent="pkg.mod:build"
    )
    assert chosen.save() == []
    saved = EvalSet.from_file(tmp_path / "x.evalset.json")
    assert (saved.eval_set_id, saved.metadata) == ("weather-v2", {"agent": "pkg.mod:build"})


def test_the_agent_is_set_in_the_metadata_and_undone(path: Path) -> None:
    before = path.read_text()
    doc = EvalSetDocument.load(path)
    assert doc.set_agent("pkg.mod:build")
    assert not doc.set_agent("pkg.mod:build")  # the same agent: no step
    assert doc.agent == "pkg.mod:build"
    assert doc.set_agent("")
    assert doc.to_data()["metadata"] == {}  # the file had an empty metadata object: kept
    doc.undo()
    assert doc.agent == "pkg.mod:build"
    doc.undo()
    assert doc.to_text() == before  # back to the text as loaded

    data = json.loads(before)
    del data["metadata"]
    path.write_text(json.dumps(data, indent=2))
    doc = EvalSetDocument.load(path)
    assert not doc.set_agent("")  # no metadata and no agent: nothing to write
    doc.set_agent("a:b")
    doc.undo()
    assert "metadata" not in doc.to_data()


HAND_LAID_OUT = (
    '{\r\n  "eval_set_id": "w",  "name": "old",\r\n  "eval_cases": [\r\n'
    '    {"eval_id": "a", "conversation": [{"user_content": {"role": "user", "content": "q"}}]}\r\n'
    "  ]\r\n}\r\n"
)


def test_eval_set_fields_are_saved_in_place_and_the_cases_keep_their_bytes(tmp_path: Path) -> None:
    target = tmp_path / "hand.evalset.json"
    target.write_bytes(HAND_LAID_OUT.encode())
    doc = EvalSetDocument.load(target)
    doc.set_header("eval_set_id", "weather")
    doc.set_agent("pkg.mod:build")  # a field the file did not have: added last
    assert doc.save() == []
    saved = target.read_bytes().decode()
    assert saved == (
        HAND_LAID_OUT.replace('"w"', '"weather"').replace(
            "\r\n  ]\r\n}",
            '\r\n  ],\r\n  "metadata": {\r\n    "agent": "pkg.mod:build"\r\n  }\r\n}',
        )
    )
    doc.set_agent("")
    assert doc.save() == []
    assert target.read_bytes().decode() == saved.replace(
        '{\r\n    "agent": "pkg.mod:build"\r\n  }', "{}"
    )
    doc = EvalSetDocument.load(target)
    doc.set_header_value("metadata", None)  # a field removed: the whole file is written
    assert doc.save() == []
    assert json.loads(target.read_text()) == {
        "eval_set_id": "weather",
        "name": "old",
        "eval_cases": json.loads(HAND_LAID_OUT)["eval_cases"],
    }


def test_a_matcher_that_cannot_be_read_is_a_problem_of_its_field(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    key = "turns.0.tools.0.args"
    doc.set_field(uid, key, '{"x": {"$regex": "(1"}}')
    assert doc.field_problems(uid)[key].startswith("args.x.$regex: invalid regular expression")
    doc.set_field(uid, key, '{"x": {"$regex": "^1", "$in": [1]}, "y": {"$in": 2}}')
    assert (
        doc.field_problems(uid)[key]
        == "args.x: one matcher per object, not 2 ($regex, $in) (and 1 more)"
    )
    doc.set_field(uid, key, '{"x": {"$approx": 1, "tol": 0.1}}')
    assert doc.field_problems(uid) == {}
    stored = doc.case(uid).data["conversation"][0]["expected_tool_trajectory"][0]["args"]
    assert stored == {"x": {"$approx": 1, "tol": 0.1}}
    doc.save()
    assert (
        EvalSet.from_file(path).eval_cases[0].conversation[0].expected_tool_trajectory[0].args
        == stored
    )


def test_trajectory_rules_in_metadata_are_checked_as_typed(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    uid = uid_of(doc, "one")
    doc.set_field(uid, "metadata", '{"trajectory_rules": {"max_calls": {"t": "two"}}}')
    assert doc.field_problems(uid)["metadata"] == (
        "trajectory_rules.max_calls.t: max_calls of 't' must be a whole number >= 0, not 'two'"
    )
    doc.set_field(uid, "metadata", '{"trajectory_rules": {"max_calls": {"t": 2}}}')
    assert doc.field_problems(uid) == {}
