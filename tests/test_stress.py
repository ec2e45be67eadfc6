"""The stress target's default selection names test paths that exist (a moved test folder
would otherwise make ``make test-stress`` fail before it ran anything)."""

from pathlib import Path

from tests.stress import DEFAULT_SELECTION, parse

ROOT = Path(__file__).resolve().parents[1]


def test_every_default_path_exists() -> None:
    missing = [path for path in DEFAULT_SELECTION if not (ROOT / path).exists()]
    assert missing == []


def test_no_arguments_means_the_default_selection() -> None:
    args, pytest_args = parse([])
    assert (args.busy, args.rounds) == (2, 1)
    assert pytest_args == list(DEFAULT_SELECTION)
    assert parse(["--rounds", "3", "--", "tests/tui", "-x"])[1] == ["tests/tui", "-x"]
