"""The subcommands over runs in time: ``history``, ``trend`` and ``diff``: their flags.

Each command's work lives in its own module (:mod:`.history_command`,
:mod:`.trend_command`, :mod:`.diff_command`), imported when the command runs, so
``--help`` loads neither SQLite nor pydantic.
"""

from __future__ import annotations

import argparse

from tenxeval_tui.browsing.history.defaults import (
    ALPHA,
    LAST_RUNS,
    MIN_AFTER,
    MIN_BEFORE,
    WINDOW,
)

FOLDER_HELP = "the report folder (default: where `run` writes reports)"


def _history(args: argparse.Namespace) -> int:
    from tenxeval_tui.cli.history_command import history_command

    return history_command(args)


def _trend(args: argparse.Namespace) -> int:
    from tenxeval_tui.cli.trend_command import trend_command

    return trend_command(args)


def _diff(args: argparse.Namespace) -> int:
    from tenxeval_tui.cli.diff_command import diff_command

    return diff_command(args)


def add_history_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``history``."""
    parser.add_argument("folder", nargs="?", metavar="FOLDER", help=FOLDER_HELP)
    parser.add_argument("--eval-set", metavar="ID", help="only this eval set")
    parser.add_argument("--case", metavar="ID", help="only this case (by eval id)")
    parser.add_argument(
        "--last",
        type=int,
        default=LAST_RUNS,
        metavar="N",
        help=f"the last N runs (default {LAST_RUNS}; 0: every run)",
    )
    parser.add_argument(
        "--all", action="store_true", help="list every case, also those that always passed"
    )
    parser.add_argument("--json", action="store_true", help="print the history as JSON")


def add_trend_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``trend``."""
    parser.add_argument("folder", nargs="?", metavar="FOLDER", help=FOLDER_HELP)
    parser.add_argument("--eval-set", metavar="ID", required=True, help="the eval set to test")
    parser.add_argument(
        "--window",
        type=int,
        default=WINDOW,
        metavar="N",
        help=f"test the last N complete runs (default {WINDOW}; at least {MIN_BEFORE + MIN_AFTER})",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        default=ALPHA,
        help=f"the false-alarm rate of one check (default {ALPHA})",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def add_diff_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``diff``."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="OLD NEW, or FILE with --git")
    parser.add_argument(
        "--git", metavar="REF", help="compare FILE as git holds it at REF with FILE as it is"
    )
    parser.add_argument("--json", action="store_true", help="print the change as JSON")


def add_history_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``history``, ``trend`` and ``diff`` to the command's subcommands."""
    history = sub.add_parser(
        "history",
        help="each eval set's runs over time and its cases' pass/fail strings",
        description="The runs of each eval set in a report folder (time, commit, pass "
        "rate with its 95% interval, cost, wall time) and each case's pass/fail string "
        "over them, with the run where it last changed. Read from the folder's history "
        "index (.tenxeval-history.sqlite), brought up to date first.",
    )
    add_history_arguments(history)
    history.set_defaults(func=_history)
    trend = sub.add_parser(
        "trend",
        help="exit 1 when an eval set's pass rate fell significantly over its last runs",
        description="The CI gate on a fall of the pass rate: a permutation test of the "
        "largest drop over every cut of the last --window runs (a flat noisy series trips "
        "it at most --alpha of the time; one bad run never does). Exit 1 on a significant "
        "drop (naming the run where it began and the cases that flipped there), 0 "
        "otherwise, 2 on a usage error.",
    )
    add_trend_arguments(trend)
    trend.set_defaults(func=_trend)
    diff = sub.add_parser(
        "diff",
        help="an eval set's change case by case (added, removed, changed fields)",
        description="Compare two versions of an eval set case by case, or FILE with its "
        "version at a git revision (--git REF). Exit 0 when they hold the same cases, 1 "
        "when they differ, 2 when a file does not load.",
    )
    add_diff_arguments(diff)
    diff.set_defaults(func=_diff)


__all__ = [
    "add_diff_arguments",
    "add_history_arguments",
    "add_history_parsers",
    "add_trend_arguments",
]
