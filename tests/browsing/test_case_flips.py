"""Which cases of an eval set flipped lately, from the reports in a folder (UI-free)."""

from __future__ import annotations

import os
from pathlib import Path

from tenxeval_tui.browsing.case_flips import CaseFlipIndex, CaseFlips
from tests.browsing.test_flaky_cases import DAY, write_history
from tests.repeat_samples import repeats_report
from tests.report_samples import BASELINE_TIME

OK, BAD = [True], [False]


def test_only_the_cases_that_flipped_are_flagged(tmp_path: Path) -> None:
    write_history(
        tmp_path / "reports",
        [
            {"london": OK, "paris": OK, "oslo": [True, True]},
            {"london": OK, "paris": BAD, "oslo": [True, False]},
        ],
    )
    history = CaseFlipIndex(tmp_path / "reports", tmp_path / "cache").history("weather-agent")
    assert history.runs == 2
    assert history.flipped_ids == {"paris", "oslo"}
    paris = history.of("paris")
    assert paris == CaseFlips("paris", flips=1, repeat_flips=0, runs=2, newest_disagreed=False)
    assert paris.describe() == "~ flipped 1 time in its last 2 runs"
    oslo = history.of("oslo")
    assert oslo is not None and oslo.newest_disagreed and oslo.repeat_flips == 1
    # oslo passed the first run and failed the second by the rule (all repeats pass)
    assert oslo.describe() == (
        "~ flipped 2 times in its last 2 runs (1 between runs, 1 between repeats);"
        " its repeats disagreed in the newest run"
    )
    assert history.of("london") is None


def test_no_folder_or_no_reports_flags_nothing(tmp_path: Path) -> None:
    index = CaseFlipIndex(tmp_path / "absent", None)
    assert index.history("weather-agent").flipped_ids == frozenset()
    (tmp_path / "empty").mkdir()
    history = CaseFlipIndex(tmp_path / "empty", None).history("weather-agent")
    assert (history.runs, history.flipped_ids) == (0, frozenset())


def test_other_eval_sets_and_broken_files_stay_out(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    write_history(folder, [{"paris": OK}, {"paris": BAD}])
    other = repeats_report({"paris": OK}, BASELINE_TIME + 5 * DAY)
    other.eval_set_id = "other"
    other.to_file(folder / "other.json")
    (folder / "broken.json").write_text("{ not json", encoding="utf-8")
    index = CaseFlipIndex(folder, None)
    found = index.histories(["weather-agent", "other"])
    assert found["weather-agent"].flipped_ids == {"paris"}
    assert found["weather-agent"].unreadable == 1
    assert found["other"].runs == 1 and found["other"].flipped_ids == frozenset()


def test_a_new_report_is_read_alone_and_updates_the_flags(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    write_history(folder, [{"london": OK, "paris": OK}, {"london": OK, "paris": BAD}])
    index = CaseFlipIndex(folder, tmp_path / "cache")
    assert index.history("weather-agent").flipped_ids == {"paris"}
    assert index.reports_read == 2
    assert index.history("weather-agent").flipped_ids == {"paris"}
    assert index.reports_read == 2  # nothing changed: nothing read again
    newer = repeats_report({"london": BAD, "paris": BAD}, BASELINE_TIME + 2 * DAY)
    newer.to_file(folder / "weather-agent_02.json")
    assert index.history("weather-agent").flipped_ids == {"paris", "london"}
    assert index.reports_read == 3
    # a second index finds the summaries in the disk cache
    again = CaseFlipIndex(folder, tmp_path / "cache")
    assert again.history("weather-agent").flipped_ids == {"paris", "london"}
    assert again.reports_read == 0


def test_only_the_last_runs_count(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    paths = write_history(folder, [{"paris": BAD}, {"paris": OK}, {"paris": OK}, {"paris": OK}])
    assert CaseFlipIndex(folder, None, last=3).history("weather-agent").flipped_ids == frozenset()
    assert CaseFlipIndex(folder, None, last=4).history("weather-agent").flipped_ids == {"paris"}
    # a report rewritten in place is read anew
    index = CaseFlipIndex(folder, None, last=3)
    assert index.history("weather-agent").flipped_ids == frozenset()
    repeats_report({"paris": BAD}, BASELINE_TIME + 3 * DAY).to_file(paths[-1])
    stat = paths[-1].stat()
    os.utime(paths[-1], ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert index.history("weather-agent").flipped_ids == {"paris"}


def test_the_marks_window_is_the_flaky_views_first() -> None:
    from tenxeval_tui.browsing.case_flips import FLIP_WINDOW
    from tenxeval_tui.browsing.flaky_cases import HISTORY_SIZES

    assert HISTORY_SIZES[0] == FLIP_WINDOW


def test_the_flagged_cases_are_those_the_flaky_view_lists(tmp_path: Path) -> None:
    import random

    from tenxeval_tui.browsing.case_flips import flip_history
    from tenxeval_tui.browsing.flaky_cases import flaky_cases
    from tenxeval_tui.browsing.run_summaries import RunSummaries, RunSummary, eval_set_history

    rng = random.Random(7)
    ids = [f"c{i}" for i in range(30)]
    steady = set(ids[:10])  # always pass; the others pass by a draw, some runs repeated
    runs = [
        {
            i: [True] if i in steady else [rng.random() < 0.9 for _ in range(rng.choice([1, 3]))]
            for i in ids
        }
        for _ in range(4)
    ]
    write_history(tmp_path, runs)
    found = [s for s in RunSummaries(None).of_folder(tmp_path) if isinstance(s, RunSummary)]
    history = eval_set_history(found, "weather-agent", None)
    expected = {c.history.eval_id: c for c in flaky_cases(history) if c.unstable}
    flagged = flip_history("weather-agent", history)
    assert 0 < len(expected) < len(ids)
    assert flagged.flipped_ids == set(expected)
    for eval_id, case in expected.items():
        flips = flagged.of(eval_id)
        assert flips is not None
        assert (flips.flips, flips.repeat_flips, flips.runs) == (
            case.history.flips,
            case.repeat_flips,
            case.history.runs,
        )
