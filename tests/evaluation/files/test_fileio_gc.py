"""Loading a file leaves frozen objects frozen, without counting them (a walk over them all)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalSet, EvalSetBuilder
from tenxeval_tui.evaluation.files.fileio import freeze_alive


@pytest.fixture
def eval_set_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.evalset.json"
    EvalSetBuilder("s").add_case("hi", "hello", case_id="a").save(path)
    return path


def test_loading_after_the_run_view_froze_never_counts_the_frozen_objects(
    eval_set_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python's gc.get_freeze_count() walks every frozen object: once a long run had been
    # frozen in the workbench, each load (a watch-mode save) paid tens of milliseconds.
    def walked() -> int:
        raise AssertionError("gc.get_freeze_count() called while loading")

    try:
        freeze_alive()  # as the run view does after a run
        monkeypatch.setattr(gc, "get_freeze_count", walked)
        assert EvalSet.from_file(eval_set_file).eval_cases[0].eval_id == "a"
    finally:
        gc.unfreeze()


def _collectable(kept: list[list[int]]) -> bool:
    """Whether any of ``kept`` is back among the objects collections walk (frozen objects
    are in none of the generations ``gc.get_objects`` lists)."""
    ids = {id(item) for item in kept}
    return any(id(obj) in ids for obj in gc.get_objects())


def test_objects_frozen_by_the_run_view_stay_frozen_across_a_load(eval_set_file: Path) -> None:
    # Judged by the objects themselves, not by gc.get_freeze_count(): that count also falls
    # when some other frozen object is freed by reference counting during the load (a
    # clean clone's suite saw 725,283 -> 725,262), which unfreezes nothing.
    kept = [[index] for index in range(1000)]
    try:
        freeze_alive()
        assert not _collectable(kept)
        EvalSet.from_file(eval_set_file)
        assert not _collectable(kept)  # not unfrozen by the load
    finally:
        gc.unfreeze()
    assert _collectable(kept)  # the check sees an unfreeze
    assert len(kept) == 1000
