"""The history index: made from the reports, kept up to date incrementally, rebuilt when
it is missing, damaged or of another version; the JSON reports stay the truth."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

from tenxeval_tui.browsing.history.index import INDEX_NAME, SCHEMA_VERSION, HistoryIndex
from tenxeval_tui.browsing.history.queries import eval_set_history, eval_sets, runs_of
from tests.browsing.history.samples import HOUR, START, write_run, write_series

IDS = ["london", "paris", "tokyo"]


def history(folder: Path, last: int = 20, case: str | None = None):  # type: ignore[no-untyped-def]
    with HistoryIndex(folder) as index:
        index.sync()
        return eval_set_history(index, "weather", last=last, case=case)


def test_runs_and_case_strips_with_the_run_where_each_last_changed(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP", "PFE", "PPE", "PPP"], IDS, commit="c" * 40)
    write_run(tmp_path, 9, {"x": "P"}, eval_set_id="other")
    found = history(tmp_path)
    assert found.title == "Weather"
    assert [r.passed for r in found.runs] == [3, 2, 1, 2, 3]
    assert found.runs[0].path.name == "weather_0000.json"
    assert found.runs[1].commit == "cccccccc"
    strips = {s.eval_id: s for s in found.cases}
    assert strips["london"].marks == "PPPPP" and strips["london"].last_change is None
    assert strips["paris"].marks == "PFFPP"
    assert strips["paris"].last_change == found.runs[3]  # failed -> passed, in run 3
    assert strips["paris"].last_change_from == "F"
    assert strips["tokyo"].marks == "PPEEP"
    assert strips["tokyo"].last_change == found.runs[4]
    window = history(tmp_path, last=2)
    assert [s.marks for s in window.cases] == ["PP", "PP", "EP"]
    assert window.cases[1].last_change == found.runs[3]  # the change is older than the window


def test_a_new_report_is_read_alone_and_the_index_is_kept(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP"], IDS)
    with HistoryIndex(tmp_path) as index:
        first = index.sync()
        assert first.read == 2 and first.rebuilt
        assert index.sync().read == 0
    assert (tmp_path / INDEX_NAME).is_file()
    write_run(tmp_path, 2, {"london": "F", "paris": "F", "tokyo": "P"})
    with HistoryIndex(tmp_path) as index:
        again = index.sync()
        assert (again.read, again.removed, again.rebuilt) == (1, 0, False)
        strips = eval_set_history(index, "weather").cases
        assert [s.marks for s in strips] == ["PPF", "PFF", "PPP"]
        assert strips[0].last_change is not None and strips[0].last_change.path.name.endswith(
            "0002.json"
        )


def test_add_indexes_only_the_files_named(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP"], IDS)
    with HistoryIndex(tmp_path) as index:
        index.sync()
        late = write_run(tmp_path, 1, {"london": "F", "paris": "P", "tokyo": "P"})
        untouched = write_run(tmp_path, 2, dict.fromkeys(IDS, "P"))
        assert index.add([late, tmp_path.parent / "elsewhere.json"]).read == 1
        assert [r.path for r in runs_of(index, "weather")][-1] == late
        assert index.sync().read == 1  # the one not added
        assert [r.path for r in runs_of(index, "weather")][-1] == untouched


def test_changed_removed_and_out_of_order_reports(tmp_path: Path) -> None:
    paths = write_series(tmp_path, ["PPP", "FPP", "PPP", "FPP"], IDS)
    assert history(tmp_path).cases[0].marks == "PFPF"
    paths[3].unlink()
    assert history(tmp_path).cases[0].marks == "PFP"
    # a report of an older run lands late (copied in): it goes in its place in time
    write_run(tmp_path, 7, {"london": "F", "paris": "P", "tokyo": "P"}, timestamp=START - HOUR)
    found = history(tmp_path)
    assert found.cases[0].marks == "FPFP"
    assert found.cases[0].last_change == found.runs[3]
    # a report rewritten in place is read again
    write_run(tmp_path, 2, {"london": "F", "paris": "P", "tokyo": "P"})
    found = history(tmp_path)
    assert found.cases[0].marks == "FPFF"
    assert found.cases[0].last_change == found.runs[2]


def test_rescored_broken_and_foreign_files_are_no_runs(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PPP"], IDS)
    write_run(tmp_path, 5, dict.fromkeys(IDS, "F"), metadata={"rescored": {"from": "x"}})
    (tmp_path / "broken.json").write_text('{"eval_set_id": "weather", "results": [')
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    (tmp_path / "plain.evalset.json").write_text('{"eval_set_id": "weather", "eval_cases": []}')
    found = history(tmp_path)
    assert len(found.runs) == 2 and [s.marks for s in found.cases] == ["PP", "PP", "PP"]
    with HistoryIndex(tmp_path) as index:
        assert index.sync().read == 0  # the broken files are known: not read again
        problems = dict(
            index.db.execute("SELECT file, problem FROM reports WHERE problem IS NOT NULL")
        )
    assert set(problems) == {"broken.json", "notes.json"}
    assert "broken.json:1:40: invalid JSON" in problems["broken.json"]


def test_a_damaged_or_older_index_is_made_anew(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP"], IDS)
    (tmp_path / INDEX_NAME).write_bytes(b"this is no database" * 100)
    assert len(history(tmp_path).runs) == 2
    with sqlite3.connect(tmp_path / INDEX_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with HistoryIndex(tmp_path) as index:
        assert index.rebuilt and index.sync().read == 2
    with sqlite3.connect(tmp_path / INDEX_NAME) as db:
        db.execute("DELETE FROM cases")  # stale in a way stamps cannot tell: the files win
    with HistoryIndex(tmp_path) as index:
        index.db.execute("DELETE FROM reports")
        assert index.sync().read == 2
        assert [s.marks for s in eval_set_history(index, "weather").cases][1] == "PF"


def test_a_read_only_folder_gets_an_index_in_memory(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP"], IDS)
    os.chmod(tmp_path, 0o555)
    try:
        if os.access(tmp_path, os.W_OK):  # root writes anyway: nothing to check then
            return
        assert [s.marks for s in history(tmp_path).cases] == ["PP", "PF", "PP"]
        assert not (tmp_path / INDEX_NAME).exists()
    finally:
        os.chmod(tmp_path, 0o755)


def test_eval_sets_and_a_case_that_left_the_window(tmp_path: Path) -> None:
    write_series(tmp_path, ["PPP", "PFP"], IDS, commit="a" * 40, dirty=True)
    write_run(tmp_path, 3, {"london": "P"})  # paris and tokyo not run any more
    write_run(tmp_path, 4, {"x": "P"}, eval_set_id="other")
    with HistoryIndex(tmp_path) as index:
        index.sync()
        sets = eval_sets(index)
        assert [(s.eval_set_id, s.runs) for s in sets] == [("other", 1), ("weather", 3)]
        assert runs_of(index, "weather")[0].commit == "aaaaaaaa+"
        window = eval_set_history(index, "weather", last=1)
        assert [s.eval_id for s in window.cases] == ["london"]
        paris = eval_set_history(index, "weather", last=1, case="paris").cases
        assert [(s.eval_id, s.marks) for s in paris] == [("paris", "-")]
        assert paris[0].last_change is not None and paris[0].last_change.passed == 2
    assert json.loads((tmp_path / "weather_0000.json").read_text())["eval_set_id"] == "weather"


def _sync_at(start: threading.Barrier, folder: Path, failures: list[BaseException]) -> None:
    start.wait()
    try:
        with HistoryIndex(folder) as index:
            index.sync()
    except BaseException as exc:
        failures.append(exc)


def test_two_openers_of_a_new_index_at_once_both_keep_it(tmp_path: Path) -> None:
    # The report browser's list and its history view open a new folder's index together: the
    # second used to take the first's creation for a damaged file and delete it under it
    # ("attempt to write a readonly database" at the first's next write).
    for round_ in range(20):
        folder = tmp_path / str(round_)
        folder.mkdir()
        write_series(folder, ["PPP", "PFP"], IDS)
        start, failures = threading.Barrier(3), list[BaseException]()
        threads = [
            threading.Thread(target=_sync_at, args=(start, folder, failures)) for _ in range(3)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == [], f"round {round_}: {failures}"
        assert [r.passed for r in history(folder).runs] == [3, 2]
