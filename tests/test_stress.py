"""The stress target's default selection names test paths that exist (a moved test folder
would otherwise make ``make test-stress`` fail before it ran anything)."""

from pathlib import Path

from tests.stress import DEFAULT_SELECTION, parse, summary, xdist_args

ROOT = Path(__file__).resolve().parents[1]


def test_every_default_path_exists() -> None:
    missing = [path for path in DEFAULT_SELECTION if not (ROOT / path).exists()]
    assert missing == []


def test_no_arguments_means_the_default_selection() -> None:
    args, pytest_args = parse([])
    assert (args.busy, args.rounds, args.keep_going, args.workers) == (2, 1, False, "auto")
    assert pytest_args == list(DEFAULT_SELECTION)
    assert parse(["--rounds", "3", "--", "tests/tui", "-x"])[1] == ["tests/tui", "-x"]


def test_keep_going_is_an_option_and_the_summary_counts_the_rounds() -> None:
    args, pytest_args = parse(
        ["--rounds", "5", "--keep-going", "--", "tests/tui/common/test_navigation.py"]
    )
    assert (args.rounds, args.keep_going, pytest_args) == (
        5,
        True,
        ["tests/tui/common/test_navigation.py"],
    )
    assert summary([0, 1, 0], [12.4, 30.6, 9.5]) == (
        "stress: 2 of 3 rounds passed (failed: round 2); durations 12, 31, 10 s"
    )
    assert summary([0], [3.0]) == "stress: 1 of 1 rounds passed; durations 3 s"


def test_the_rounds_run_on_xdist_workers_as_make_pytest_does() -> None:
    args, _ = parse(["--workers", "3", "--", "tests/tui"])
    assert xdist_args(args.workers) == ["-n", "3", "--dist", "loadgroup"]
    makefile = (ROOT / "Makefile").read_text()
    assert "-n $(PYTEST_WORKERS) --dist loadgroup" in makefile
