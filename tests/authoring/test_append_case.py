"""Appending a case to an eval set file through the document model, and taking it back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.authoring.append_case import AppendError, append_case, undo_append
from tenxeval_tui.evaluation import EvalCase, EvalSet, EvalSetBuilder, Invocation, MessageContent


def two_turns(eval_id: str) -> EvalCase:
    return EvalCase(
        eval_id=eval_id,
        conversation=[
            Invocation(
                user_content=MessageContent.user(text),
                expected_final_response=MessageContent.assistant(reply),
            )
            for text, reply in (("Hi", "Hello!"), ("Paris?", "Sunny."))
        ],
        tags=["simulated"],
    )


@pytest.fixture
def eval_set_file(tmp_path: Path) -> Path:
    path = tmp_path / "trips.evalset.json"
    EvalSetBuilder("trips").add_case("Rome?", "Sunny.", case_id="rome").save(path)
    return path


def test_append_saves_a_valid_file_with_a_free_id_and_undo_takes_it_back(
    eval_set_file: Path,
) -> None:
    original = eval_set_file.read_text(encoding="utf-8")
    first = append_case(eval_set_file, two_turns("rome"))  # "rome" is taken
    assert first.eval_id == "rome_2"
    second = append_case(eval_set_file, two_turns("rome"))
    assert second.eval_id == "rome_3"
    cases = EvalSet.from_file(eval_set_file).eval_cases
    assert [c.eval_id for c in cases] == ["rome", "rome_2", "rome_3"]
    assert [t.user_content.get_text() for t in cases[1].conversation] == ["Hi", "Paris?"]
    undo_append(second)
    undo_append(first)  # its document's undo: the file as it was
    assert EvalSet.from_file(eval_set_file).eval_cases[-1].eval_id == "rome"
    assert eval_set_file.read_text(encoding="utf-8") == original
    with pytest.raises(AppendError, match="taken back already"):
        undo_append(first)


def test_undo_refuses_when_the_file_changed_since(eval_set_file: Path) -> None:
    appended = append_case(eval_set_file, two_turns("paris"))
    changed = eval_set_file.read_text(encoding="utf-8").replace('"trips"', '"trips2"', 1)
    eval_set_file.write_text(changed, encoding="utf-8")
    with pytest.raises(AppendError, match="changed since case 'paris' was saved"):
        undo_append(appended)
    assert eval_set_file.read_text(encoding="utf-8") == changed  # untouched


def test_a_broken_file_is_named_and_never_written(tmp_path: Path) -> None:
    path = tmp_path / "bad.evalset.json"
    path.write_text('{"eval_set_id": "x", "eval_cases": [{"eval_id": 3}]}', encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(AppendError, match=r"bad\.evalset\.json:1:"):
        append_case(path, two_turns("paris"))
    assert path.read_bytes() == before
    with pytest.raises(AppendError, match="file not found"):
        append_case(tmp_path / "missing.evalset.json", two_turns("paris"))
