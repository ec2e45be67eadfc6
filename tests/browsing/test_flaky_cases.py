"""The flaky cases of an eval set over the reports of its runs (UI-free)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.browsing.flaky_cases import FlakyCase, flaky_cases, sort_cases
from tenxeval_tui.browsing.run_summaries import (
    ParsedSummaries,
    RunSummaries,
    RunSummary,
    eval_set_history,
)
from tenxeval_tui.evaluation.errors import EvalFileError
from tests.repeat_samples import repeats_report
from tests.report_samples import BASELINE_TIME

DAY = 86400.0


def write_history(folder: Path, runs: list[dict[str, list[bool]]]) -> list[Path]:
    """One report per run (a day apart), oldest first."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, cases in enumerate(runs):
        path = folder / f"weather-agent_{i:02d}.json"
        repeats_report(cases, BASELINE_TIME + i * DAY).to_file(path)
        paths.append(path)
    return paths


def history(folder: Path, last: int | None = None, cache: Path | None = None) -> list[RunSummary]:
    found = RunSummaries(cache).of_folder(folder)
    return eval_set_history([s for s in found if isinstance(s, RunSummary)], "weather-agent", last)


def by_id(cases: list[FlakyCase]) -> dict[str, FlakyCase]:
    return {c.history.eval_id: c for c in cases}


def test_cases_rank_by_flips_between_runs_and_between_repeats(tmp_path: Path) -> None:
    ok, bad = [True], [False]
    paths = write_history(
        tmp_path,
        [
            {"london": ok, "paris": ok, "tokyo": ok, "oslo": [True, False, True]},
            {"london": ok, "paris": bad, "tokyo": ok, "oslo": [True, True, True]},
            {"london": ok, "paris": ok, "tokyo": bad, "oslo": [True, True, True]},
        ],
    )
    # another eval set's report in the folder stays out of this history
    other = repeats_report({"x": ok}, BASELINE_TIME)
    other.eval_set_id = "other"
    other.to_file(tmp_path / "other.json")
    assert [run.path for run in history(tmp_path)] == paths
    assert [run.path for run in history(tmp_path, last=2)] == paths[1:]

    cases = by_id(flaky_cases(history(tmp_path)))
    assert cases["paris"].history.outcomes == [True, False, True]
    assert cases["paris"].history.flips == 2 and cases["paris"].repeat_flips == 0
    assert cases["tokyo"].history.flips == 1
    # oslo failed its first run by the rule (2 of 3 repeats) and flipped twice within it
    assert cases["oslo"].history.outcomes == [False, True, True]
    assert cases["oslo"].repeat_flips == 2
    assert (cases["oslo"].history.passes, cases["oslo"].history.total) == (8, 9)
    assert not cases["london"].unstable and cases["oslo"].unstable
    assert cases["paris"].latest == paths[-1]

    ranked = [c.history.eval_id for c in flaky_cases(history(tmp_path))]
    assert ranked == ["paris", "oslo", "tokyo", "london"]
    by_rate = [c.history.eval_id for c in sort_cases(list(cases.values()), "pass rate")]
    assert by_rate == ["paris", "tokyo", "oslo", "london"]
    by_flips = [c.history.eval_id for c in sort_cases(list(cases.values()), "flips")]
    assert by_flips[:2] == ["oslo", "paris"]  # 3 flips in all (1 + 2), then 2


def test_a_single_run_with_repeats_already_shows_its_unstable_cases(tmp_path: Path) -> None:
    paths = write_history(tmp_path, [{"steady": [True] * 4, "wobbly": [True, False, True, True]}])
    assert len(paths) == 1
    cases = by_id(flaky_cases(history(tmp_path)))
    assert cases["wobbly"].unstable and cases["wobbly"].repeat_flips == 2
    assert cases["wobbly"].history.pass_rate == 0.75
    assert not cases["steady"].unstable


def test_summaries_are_cached_until_the_report_changes(tmp_path: Path) -> None:
    reports, cache = tmp_path / "reports", tmp_path / "cache"
    paths = write_history(reports, [{"a": [True]}, {"a": [False]}])
    (reports / "broken.json").write_text('{"eval_set_id": ', encoding="utf-8")
    first = RunSummaries(cache)
    found = list(first.of_folder(reports))
    assert first.read == 3  # two reports and the broken file were read
    errors = [f for f in found if isinstance(f, EvalFileError)]
    assert len(errors) == 1 and "broken.json" in str(errors[0])
    again = RunSummaries(cache)
    cached = [s for s in again.of_folder(reports) if isinstance(s, RunSummary)]
    assert again.read == 1  # only the broken file, which has no summary to keep
    fresh = [s for s in RunSummaries(None).of_folder(reports) if isinstance(s, RunSummary)]
    assert [s.to_json() for s in cached] == [s.to_json() for s in fresh]
    assert by_id(flaky_cases(cached))["a"].history.outcomes == [True, False]
    write_history(reports, [{"a": [True]}, {"a": [True, True]}])  # the last run again
    third = RunSummaries(cache)
    runs = eval_set_history(
        [s for s in third.of_folder(reports) if isinstance(s, RunSummary)], "weather-agent", None
    )
    assert third.read == 3  # both rewritten reports (new mtimes) and the broken file
    assert runs[-1].path == paths[-1] and runs[-1].outcome.cases[0].runs == 2


def test_summaries_parsed_once_are_not_parsed_again_until_the_report_changes(
    tmp_path: Path,
) -> None:
    reports, cache = tmp_path / "reports", tmp_path / "cache"
    paths = write_history(reports, [{"a": [True]}, {"a": [False]}])
    parsed = ParsedSummaries()
    first = [s for s in RunSummaries(cache, parsed).of_folder(reports)]
    for file in cache.iterdir():  # a summary found in memory never reads its file
        file.write_text("not json", encoding="utf-8")
    again = RunSummaries(cache, parsed)
    found = list(again.of_folder(reports))
    assert again.read == 0
    assert [s.to_json() for s in found] == [s.to_json() for s in first]  # type: ignore[union-attr]
    write_history(reports, [{"a": [True]}, {"a": [True, True]}])  # both rewritten
    third = RunSummaries(cache, parsed)
    runs = [s for s in third.of_folder(reports) if isinstance(s, RunSummary)]
    assert third.read == 2  # the disk cache is broken and the memory one stale
    assert runs[-1].path == paths[-1] and runs[-1].outcome.cases[0].runs == 2
    assert RunSummaries(None, parsed).summary(paths[0]).path == paths[0]


def test_the_summaries_kept_in_memory_are_the_last_used(tmp_path: Path) -> None:
    reports, cache = tmp_path / "reports", tmp_path / "cache"
    paths = write_history(reports, [{"a": [True]}, {"a": [False]}, {"a": [True]}])
    parsed = ParsedSummaries(limit=2)
    summaries = RunSummaries(cache, parsed)
    for path in [*paths, paths[0]]:
        summaries.summary(path)
    for file in cache.iterdir():
        file.unlink()
    summaries.read = 0
    summaries.summary(paths[0])
    summaries.summary(paths[2])
    assert summaries.read == 0  # the two used last
    summaries.summary(paths[1])
    assert summaries.read == 1


def test_rescored_reports_are_not_runs_of_the_history(tmp_path: Path) -> None:
    paths = write_history(tmp_path, [{"a": [True]}, {"a": [False]}])
    rescored = repeats_report({"a": [True]}, BASELINE_TIME + 5 * DAY)
    rescored.metadata["rescored"] = {"original_timestamp": BASELINE_TIME + DAY}
    rescored.to_file(tmp_path / "weather-agent_01.what-if.json")
    runs = history(tmp_path, cache=tmp_path / "cache")
    assert [run.path for run in runs] == paths
    again = history(tmp_path, cache=tmp_path / "cache")  # from the cache: still left out
    assert [run.path for run in again] == paths
    assert by_id(flaky_cases(again))["a"].history.outcomes == [True, False]
