"""A path in a run's messages and resume command: from the folder when inside it."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.runs.shown_paths import shown_path


def test_a_path_inside_the_folder_is_shown_from_it_any_other_as_it_is(tmp_path: Path) -> None:
    inside = tmp_path / "evals" / "a.evalset.json"
    assert shown_path(inside, tmp_path) == "evals/a.evalset.json"
    assert shown_path(inside, tmp_path / "other") == str(inside)
    assert shown_path(inside, None) == str(inside)
    relative = Path("evals/a.evalset.json")  # not inside an absolute folder
    assert shown_path(relative, tmp_path) == "evals/a.evalset.json"
    assert shown_path(Path("/elsewhere/a.json"), tmp_path) == "/elsewhere/a.json"
