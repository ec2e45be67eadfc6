"""Keeping both versions of a file changed on disk while it had unsaved edits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.authoring.disk_merge import interleave, merge_disk_version
from tenxeval_tui.authoring.document import EvalSetDocument

# Hand laid out: the cases nobody edits must keep this layout through a merge and a save.
ORIGINAL = """{
  "eval_set_id": "w",
  "name": "weather",
  "eval_cases": [
    {"eval_id": "a", "conversation": [{"user_content": {"role": "user", "content": "qa"}}]},
    {"eval_id": "b", "conversation": [{"user_content": {"role": "user", "content": "qb"}}]},
    {"eval_id": "c", "conversation": [{"user_content": {"role": "user", "content": "qc"}}]}
  ]
}
"""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    target = tmp_path / "w.evalset.json"
    target.write_text(ORIGINAL, encoding="utf-8")
    return target


def uid(doc: EvalSetDocument, eval_id: str) -> int:
    return next(case.uid for case in doc.cases if case.eval_id == eval_id)


def on_disk(path: Path, old: str, new: str) -> str:
    """Change the file outside the editor (a text edit, as another editor would)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path.read_text(encoding="utf-8")


def test_edits_of_different_cases_are_both_kept_and_the_rest_keeps_its_bytes(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_field(uid(doc, "a"), "name", "mine")
    disk = on_disk(path, '"content": "qc"', '"content": "qc changed outside"')

    merge = merge_disk_version(doc, disk)
    assert merge.conflicts == [] and merge.document is not None
    merged = merge.document
    assert merge.applied == ["case 'a' edited"]
    assert merged.dirty and merged.disk_text == disk
    assert doc.case(uid(doc, "a")).data["name"] == "mine"  # the old document is untouched
    merged.undo()  # my edit is a step on top of the disk's version
    assert merged.to_text() == disk
    merged.redo()
    assert merged.save() == []
    saved = path.read_text(encoding="utf-8")
    lines = saved.splitlines()
    assert disk.splitlines()[5] in lines  # b, untouched: byte for byte
    assert disk.splitlines()[6] in lines  # c as changed outside, byte for byte
    assert "qc changed outside" in disk.splitlines()[6]
    data = json.loads(saved)
    assert data["eval_cases"][0]["name"] == "mine"


def test_a_case_changed_on_both_sides_is_a_conflict(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_field(uid(doc, "b"), "name", "mine")
    disk = on_disk(path, '"content": "qb"', '"content": "theirs"')
    merge = merge_disk_version(doc, disk)
    assert merge.document is None
    assert merge.conflicts == ["case 'b': changed here and on disk"]

    doc = EvalSetDocument.load(path)  # the same change on both sides is no conflict
    doc.set_field(uid(doc, "b"), "turns.0.user", "theirs again")
    disk = on_disk(path, '"content": "theirs"', '"content": "theirs again"')
    merge = merge_disk_version(doc, disk)
    assert merge.conflicts == [] and merge.document is not None
    assert not merge.document.dirty


def test_deleted_on_one_side_edited_on_the_other_is_a_conflict(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_field(uid(doc, "c"), "name", "mine")
    doc.delete_case(uid(doc, "a"))
    data = json.loads(path.read_text())
    data["eval_cases"] = [data["eval_cases"][0], data["eval_cases"][1]]  # c deleted outside
    data["eval_cases"][0]["name"] = "theirs"  # a changed outside
    disk = json.dumps(data, indent=2)
    merge = merge_disk_version(doc, disk)
    assert merge.document is None
    assert merge.conflicts == [
        "case 'c': edited here, deleted on disk",
        "case 'a': deleted here, changed on disk",
    ]


def test_added_deleted_and_moved_cases_of_both_sides_are_merged_in_order(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    new = doc.add_case(after=uid(doc, "a"))  # mine: a, case_4, b, c
    doc.set_field(new, "eval_id", "mine_new")
    doc.delete_case(uid(doc, "c"))
    data = json.loads(path.read_text())
    added = dict(data["eval_cases"][1], eval_id="disk_new")
    data["eval_cases"] = [
        data["eval_cases"][1],
        added,
        data["eval_cases"][0],
        data["eval_cases"][2],
    ]
    disk = json.dumps(data, indent=2)  # disk: b, disk_new, a, c (moved and added)
    merge = merge_disk_version(doc, disk)
    assert merge.conflicts == [] and merge.document is not None
    assert [c.eval_id for c in merge.document.cases] == ["b", "disk_new", "a", "mine_new"]
    assert merge.applied == ["case 'c' deleted", "case 'mine_new' added"]
    assert merge.document.save() == []


def test_same_new_id_on_both_sides_and_both_reordering_are_conflicts(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_field(doc.add_case(), "eval_id", "d")
    doc.move_case(uid(doc, "c"), -2)  # mine: c, a, b, d
    data = json.loads(path.read_text())
    cases = data["eval_cases"]
    data["eval_cases"] = [cases[1], cases[0], cases[2], dict(cases[0], eval_id="d")]
    merge = merge_disk_version(doc, json.dumps(data))
    assert merge.document is None
    assert merge.conflicts == [
        "the order of the cases: changed here and on disk",
        "case id 'd': used here and on disk",
    ]


def test_eval_set_fields_merge_like_cases(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_header("name", "mine")
    doc.set_agent("pkg.mod:agent")
    disk = on_disk(path, '"eval_set_id": "w"', '"eval_set_id": "w2"')
    merge = merge_disk_version(doc, disk)
    assert merge.conflicts == [] and merge.document is not None
    data = merge.document.to_data()
    assert (data["eval_set_id"], data["name"], data["metadata"]) == (
        "w2",
        "mine",
        {"agent": "pkg.mod:agent"},
    )
    disk = on_disk(path, '"name": "weather"', '"name": "theirs"')
    assert merge_disk_version(doc, disk).conflicts == [
        "eval set field 'name': changed here and on disk"
    ]


def test_a_disk_version_that_does_not_load_is_not_merged(path: Path) -> None:
    doc = EvalSetDocument.load(path)
    doc.set_field(uid(doc, "a"), "name", "mine")
    merge = merge_disk_version(doc, on_disk(path, '{"eval_id": "c"', '{"eval_id": 7'))
    assert merge.document is None
    assert merge.conflicts[0].startswith("the file on disk has a problem: case 7.eval_id")
    merge = merge_disk_version(doc, "{not json")
    assert merge.document is None and "does not load" in merge.conflicts[0]


def test_interleave_puts_new_keys_after_the_key_they_followed() -> None:
    spine = [("base", "a"), ("base", "b")]
    other = [("mine", 1), ("base", "b"), ("mine", 2), ("mine", 3), ("base", "gone")]
    assert interleave(spine, other, "mine") == [
        ("mine", 1),
        ("base", "a"),
        ("base", "b"),
        ("mine", 2),
        ("mine", 3),
    ]
