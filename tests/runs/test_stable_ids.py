"""A run's cases without an ``eval_id`` are named by their place, the same at every load."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.runs.case_scan import scan_run_file
from tenxeval_tui.runs.plan import RunPlan, load_eval_sets, unfound_choice
from tenxeval_tui.runs.stable_ids import load_with_stable_ids, positional_ids


def test_a_missing_id_is_its_place_and_never_one_the_file_uses() -> None:
    assert positional_ids(["a", None, None]) == ["a", "case-2", "case-3"]
    assert positional_ids([None, "case-1", None, "case-3-2", "case-3"]) == [
        "case-1-2", "case-1", "case-3-3", "case-3-2", "case-3",
    ]  # fmt: skip


def _file(tmp_path: Path, ids: list[str | None]) -> Path:
    cases = []
    for i, eval_id in enumerate(ids):
        case = EvalCase.single_turn(f"x{i}", f"q{i}", f"a{i}").model_dump(mode="json")
        if eval_id is None:
            del case["eval_id"]
        else:
            case["eval_id"] = eval_id
        cases.append(case)
    path = tmp_path / "set.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": cases}))
    return path


def test_the_parent_and_the_worker_find_the_same_ids(tmp_path: Path) -> None:
    path = _file(tmp_path, [None, "kept", None])
    scanned = [case.eval_id for case in scan_run_file(path).eval_cases]
    ((_, loaded),) = load_eval_sets([path])
    assert scanned == [case.eval_id for case in loaded.eval_cases] == ["case-1", "kept", "case-3"]
    # the rest of each case is as loading gives it
    whole = EvalSet.from_file(path).eval_cases
    assert [c.model_dump(exclude={"eval_id"}) for c in loaded.eval_cases] == [
        c.model_dump(exclude={"eval_id"}) for c in whole
    ]


def test_an_id_of_the_file_in_the_form_loading_makes_up_is_kept(tmp_path: Path) -> None:
    own = "0b7e0d1a-7f4c-4e8e-9d1e-2b7c1f7a9e11"
    path = _file(tmp_path, [own, None])
    assert [c.eval_id for c in load_with_stable_ids(path).eval_cases] == [own, "case-2"]


def test_a_choice_none_of_whose_cases_is_in_the_file_is_told(tmp_path: Path) -> None:
    path = _file(tmp_path, ["a", "b"])
    loaded = load_eval_sets([path])
    plan = RunPlan(agent="m:a", eval_sets=[path])
    assert unfound_choice(plan, loaded) is None
    assert unfound_choice(plan.model_copy(update={"only": {str(path): ["b", "z"]}}), loaded) is None
    gone = unfound_choice(plan.model_copy(update={"only": {str(path): ["y", "z"]}}), loaded)
    assert gone is not None
    assert str(path) in gone and "none of the 2 case(s)" in gone and "'y'" in gone
