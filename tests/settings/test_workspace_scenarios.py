"""The workspace finds scenario files next to eval sets (for the run view and `run`)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.settings.workspace import open_workspace, run_files_in


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}", encoding="utf-8")
    return path.resolve()


def test_scenario_files_are_listed_after_eval_sets_hidden_folders_skipped(tmp_path: Path) -> None:
    eval_set = touch(tmp_path / "evals/a.evalset.json")
    trips = touch(tmp_path / "evals/trips.scenarios.json")
    touch(tmp_path / ".cache/old.scenarios.json")
    touch(tmp_path / "evals/notes.json")
    workspace = open_workspace(tmp_path)
    assert workspace.scenario_files() == [trips]
    assert workspace.eval_set_files() == [eval_set]  # the editor's list: eval sets only
    assert workspace.run_files() == [eval_set, trips]
    assert run_files_in(tmp_path / "evals") == [
        tmp_path / "evals/a.evalset.json",
        tmp_path / "evals/trips.scenarios.json",
    ]


def test_a_workspace_on_one_eval_set_file_runs_only_that_file(tmp_path: Path) -> None:
    eval_set = touch(tmp_path / "a.evalset.json")
    touch(tmp_path / "trips.scenarios.json")
    workspace = open_workspace(eval_set)
    assert workspace.run_files() == [eval_set]


def test_a_scenario_file_opens_the_workspace_of_its_folder(tmp_path: Path) -> None:
    eval_set = touch(tmp_path / "a.evalset.json")
    trips = touch(tmp_path / "trips.scenarios.json")
    workspace = open_workspace(trips)
    assert workspace.single_file is None  # never edited as an (empty) eval set
    assert workspace.eval_set_files() == [eval_set]
    assert workspace.run_files() == [eval_set, trips]
