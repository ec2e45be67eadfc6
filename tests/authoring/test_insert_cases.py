"""Several cases added as one undo step (an import into the editor)."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation import EvalCase, EvalSet


def _document(tmp_path: Path) -> EvalSetDocument:
    path = tmp_path / "qa.evalset.json"
    EvalSet(
        eval_set_id="qa",
        eval_cases=[
            EvalCase.single_turn("a", "q a", "r a"),
            EvalCase.single_turn("b", "q b", "r b"),
        ],
    ).to_file(path)
    return EvalSetDocument.load(path)


def _rows(*ids: str) -> list[dict[str, object]]:
    return [EvalCase.single_turn(i, f"q {i}", f"r {i}").model_dump(mode="json") for i in ids]


def test_the_cases_are_added_in_order_and_one_undo_takes_them_all_back(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    uids = doc.insert_cases(2, _rows("c", "d", "e"))
    assert [c.eval_id for c in doc.cases] == ["a", "b", "c", "d", "e"]
    assert [doc.case(uid).eval_id for uid in uids] == ["c", "d", "e"]
    assert doc.dirty
    doc.undo()
    assert [c.eval_id for c in doc.cases] == ["a", "b"]
    assert not doc.dirty
    doc.redo()
    assert [c.eval_id for c in doc.cases] == ["a", "b", "c", "d", "e"]


def test_an_id_taken_already_gets_a_suffix(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    doc.insert_cases(1, _rows("a", "b", "new", "new"))
    assert [c.eval_id for c in doc.cases] == ["a", "a_2", "b_2", "new", "new_2", "b"]
    assert doc.problems() == []


def test_the_imported_cases_are_saved_and_load_again(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    doc.insert_cases(2, _rows("c"))
    assert doc.save() == []
    assert doc.path is not None
    saved = EvalSet.from_file(doc.path)
    assert [c.eval_id for c in saved.eval_cases] == ["a", "b", "c"]
    assert json.loads(doc.path.read_text())["eval_cases"][2]["conversation"][0]["user_content"]


def test_nothing_to_insert_is_no_undo_step(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    assert doc.insert_cases(0, []) == []
    assert not doc.can_undo
