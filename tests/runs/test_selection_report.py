"""The ``metadata.selection`` marks of a run: counted from the cases the run chose (handed
in, not selected a second time), before its ``--shard`` split."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection, Shard
from tenxeval_tui.runs.plan import RunPlan, load_eval_sets
from tenxeval_tui.runs.run_selection import chosen_for_run
from tenxeval_tui.runs.selection_report import run_selection_mark, selection_marks


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    paths = []
    for set_id, count in (("one", 4), ("two", 2)):
        path = tmp_path / f"{set_id}.evalset.json"
        cases = [EvalCase.single_turn(f"{set_id}{i}", "q", "r") for i in range(count)]
        EvalSet(eval_set_id=set_id, eval_cases=cases).to_file(path)
        paths.append(path)
    return paths


def test_a_sample_is_picked_once_and_the_mark_counts_that_pick(
    files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenxeval_tui.evaluation import subsets

    picks: list[int] = []
    real = subsets.pick_cases

    def counted(*args: object, **kwargs: object) -> object:
        picks.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(subsets, "pick_cases", counted)
    plan = RunPlan(agent="m:a", eval_sets=files, sample=3)  # no seed: each pick differs
    cases = chosen_for_run(plan, lambda _: None, load_eval_sets)
    mark = run_selection_mark(plan, cases.loaded, cases.chosen)
    assert mark == {"by": "sample", "cases": 3, "of": 6}
    assert len(picks) == 1  # before: the mark selected the cases again, a second pick
    ran = {c.eval_id for _, s in cases.selected for c in s.eval_cases}
    assert ran == {c.eval_id for _, s in cases.chosen for c in s.eval_cases}


def test_the_marks_are_of_the_cases_handed_in(files: list[Path]) -> None:
    loaded = load_eval_sets(files)
    plan = RunPlan(agent="m:a", eval_sets=files, chosen_by="rerun_failed")
    # what the run chose (a rerun of two failed cases of `one`), not all the plan selects
    chosen = [
        (
            path,
            s.model_copy(
                update={"eval_cases": s.eval_cases[:2] if s.eval_set_id == "one" else s.eval_cases}
            ),
        )
        for path, s in loaded
    ]
    assert selection_marks(plan, loaded, chosen) == {
        "one": {"by": "rerun_failed", "cases": 2, "of": 4}
    }  # `two` ran every case: no mark
    assert run_selection_mark(plan, loaded, chosen) == {
        "by": "rerun_failed",
        "cases": 4,
        "of": 6,
    }
    assert selection_marks(plan.model_copy(update={"chosen_by": None}), loaded, chosen) == {}


def test_a_shard_part_is_marked_with_the_cases_chosen_before_the_split(files: list[Path]) -> None:
    plan = RunPlan(
        agent="m:a",
        eval_sets=files,
        selection=CaseSelection(eval_ids=("one0", "one1", "two0")),
        shard=Shard(index=1, count=2),
    )
    cases = chosen_for_run(plan, lambda _: None, load_eval_sets)
    assert sum(len(s.eval_cases) for _, s in cases.chosen) == 3
    assert sum(len(s.eval_cases) for _, s in cases.selected) < 3
    assert run_selection_mark(plan, cases.loaded, cases.chosen) == {
        "by": "cases",
        "cases": 3,
        "of": 6,
    }
