"""Atomic saves clean up after saves that were killed before their rename."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tenxeval_tui.evaluation import EvalSet
from tenxeval_tui.evaluation.files.fileio import STALE_TEMPORARY_SECONDS, atomic_write_text


def aged(path: Path, seconds: float) -> Path:
    path.write_text("half a save")
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_stale_temporaries_of_that_file_go_on_its_next_save(tmp_path: Path) -> None:
    target = tmp_path / "s[1].evalset.json"
    old = STALE_TEMPORARY_SECONDS + 60
    stale = [
        aged(tmp_path / f".{target.name}.{suffix}.tmp", old) for suffix in ("ab12cd_9", "zz99yy00")
    ]
    in_progress = aged(tmp_path / f".{target.name}.qwerty12.tmp", 1)  # another save, running
    other_file = aged(tmp_path / ".other.evalset.json.ab12cd34.tmp", old)
    not_ours = aged(tmp_path / f".{target.name}.backup.tmp", old)
    EvalSet(eval_set_id="s").to_file(target)
    assert EvalSet.from_file(target).eval_set_id == "s"
    assert not any(path.exists() for path in stale)
    assert in_progress.exists() and other_file.exists() and not_ours.exists()
    leftovers = {p.name for p in tmp_path.iterdir()} - {target.name}
    assert leftovers == {in_progress.name, other_file.name, not_ours.name}


def test_a_save_into_a_folder_that_does_not_exist_yet_works(tmp_path: Path) -> None:
    target = tmp_path / "new" / "file.json"
    atomic_write_text(target, "{}")
    assert target.read_text() == "{}"
