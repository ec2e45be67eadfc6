"""The trend gate on synthetic series (seeded): a flat noisy series trips it no more often
than its false-alarm rate says, a real drop trips it and is placed where it began."""

from __future__ import annotations

import random
from pathlib import Path

from tenxeval_tui.browsing.history.index import HistoryIndex
from tenxeval_tui.browsing.history.trend import ALPHA, change_point_test, trend_of
from tests.browsing.history.samples import write_series

SERIES = 200
RUNS = 50


def run_rates(rng: random.Random, runs: int, chances: list[float]) -> list[float]:
    """Pass rates of ``runs`` runs of cases passing with the given chances, independently."""
    return [sum(rng.random() < p for p in chances) / len(chances) for _ in range(runs)]


def mixed_cases(rng: random.Random, cases: int = 100) -> list[float]:
    """Most cases pass, some are flaky, a few always fail (as a real eval set)."""
    return [rng.choice([1.0] * 7 + [0.95, 0.6, 0.0]) for _ in range(cases)]


def test_flat_noisy_series_of_50_runs_trip_it_at_most_at_its_rate() -> None:
    rng = random.Random(2024)
    trips = 0
    for _ in range(SERIES):
        rates = run_rates(rng, RUNS, [0.85] * 100)
        change = change_point_test(rates[-20:])
        assert change is not None
        trips += change.p_value <= ALPHA
    # P(X >= 19) for X ~ Binomial(200, 0.05) is below 1%: a gate tripping more often than
    # its stated rate would be caught; the seed makes the count reproducible.
    assert trips <= 18, trips


def test_checking_after_every_run_of_a_flat_series_trips_it_at_its_rate() -> None:
    rng = random.Random(7)
    checks = trips = 0
    for _ in range(20):
        rates = run_rates(rng, RUNS, mixed_cases(rng))
        for end in range(20, RUNS + 1, 3):
            change = change_point_test(rates[end - 20 : end], permutations=500)
            assert change is not None
            checks += 1
            trips += change.p_value <= ALPHA
    assert trips / checks <= 0.08, (trips, checks)  # 0.05 stated; margin for 220 checks


def test_a_real_drop_trips_it_and_is_placed_where_it_began() -> None:
    rng = random.Random(11)
    for drop_at in (44, 47):
        rates = run_rates(rng, drop_at, [0.9] * 100) + run_rates(rng, RUNS - drop_at, [0.7] * 100)
        change = change_point_test(rates[-20:])
        assert change is not None and change.p_value <= ALPHA
        assert abs((RUNS - 20 + change.at) - drop_at) <= 1
        assert change.after < change.before - 0.1


def test_one_bad_run_never_trips_it_and_a_rise_is_no_drop() -> None:
    flat = [0.9] * 19
    assert change_point_test([*flat, 0.1]) is not None
    last_alone = change_point_test([*flat, 0.1])
    assert last_alone is not None and last_alone.p_value > ALPHA  # one run after a cut: not allowed
    rise = change_point_test([0.5] * 10 + [0.9] * 10)
    assert rise is not None and rise.p_value == 1.0
    assert change_point_test([0.9, 0.8, 0.7, 0.6]) is None  # too few runs to test


def test_trend_of_a_folder_names_the_run_and_the_cases_that_flipped(tmp_path: Path) -> None:
    ids = [f"c{i}" for i in range(10)]
    columns = ["PPPPPPPPPF", "PPPPPPPPPP"] * 6 + ["PPPPPFFFFF"] * 4
    paths = write_series(tmp_path, columns, ids, commit="b" * 40)
    with HistoryIndex(tmp_path) as index:
        index.sync()
        trend = trend_of(index, "weather", window=16)
    assert trend.dropped and len(trend.runs) == 16
    assert trend.began is not None and trend.began.path == paths[12]
    assert sorted(c.eval_id for c in trend.flipped) == ["c5", "c6", "c7", "c8", "c9"]
    steady = tmp_path / "steady"
    write_series(steady, columns[:12], ids)
    with HistoryIndex(steady) as index:
        index.sync()
        assert not trend_of(index, "weather").dropped
