"""``tenxeval-tui run``: one run (:mod:`.headless`), a watched run (:mod:`.watch_run`) or the
reports of a journal, chosen by the flags; usage errors become exit code 2."""

from __future__ import annotations

import argparse
import sys

from tenxeval_tui.cli.headless import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    UsageError,
    build_plan,
    execute,
    report_journal,
)
from tenxeval_tui.cli.watch_run import watch_loop
from tenxeval_tui.evaluation.inert import inert


def run_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui run``: the exit code (usage errors are printed, never raised)."""
    try:
        plan = build_plan(args)
        if getattr(args, "from_journal", None):
            return report_journal(plan, args)
        if args.watch:
            return watch_loop(plan, args)
        return execute(plan, args)
    except UsageError as exc:
        print(inert(f"tenxeval-tui run: {exc}", multiline=True), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


__all__ = ["run_command"]
