"""``tenxeval-tui run``: one run (:mod:`.headless`), a watched run (:mod:`.watch_run`) or the
reports of a journal, chosen by the flags; usage errors become exit code 2.

With ``--json``, whatever the run prints goes to stderr and stdout holds only the JSON
summary (:func:`~tenxeval_tui.cli.run_options.json_summary`), printed once the run ends.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import TYPE_CHECKING

from tenxeval_tui.cli.headless import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    UsageError,
    build_plan,
    execute,
    report_journal,
)
from tenxeval_tui.cli.unknown_keys import warn_unknown_keys
from tenxeval_tui.cli.watch_run import watch_loop
from tenxeval_tui.evaluation.inert import inert

if TYPE_CHECKING:
    from tenxeval_tui.cli.run_options import Published


def run_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui run``: the exit code (usage errors are printed, never raised). The
    JSON reports written are added to their folder's history index."""
    published: list[Published] = []
    if not getattr(args, "json_summary", False):
        code = _run(args, published)
        _index(published)
        return code
    from tenxeval_tui.cli.run_options import json_summary

    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        code = _run(args, published)
    _index(published)
    if code != EXIT_USAGE:
        summary = json_summary(published, code, args.threshold)
        with contextlib.suppress(BrokenPipeError):
            print(json.dumps(summary, indent=2), file=out, flush=True)
    return code


def _index(published: list[Published]) -> None:
    from tenxeval_tui.browsing.history.landing import index_landed

    index_landed(file for report in published for file in report.files)


def _run(args: argparse.Namespace, published: list[Published] | None) -> int:
    try:
        plan = build_plan(args)
        warn_unknown_keys(plan, strict=getattr(args, "strict", False))
        if getattr(args, "from_journal", None):
            return report_journal(plan, args, published=published)
        if args.watch:
            return watch_loop(plan, args)
        return execute(plan, args, published=published)
    except UsageError as exc:
        print(inert(f"tenxeval-tui run: {exc}", multiline=True), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


__all__ = ["run_command"]
