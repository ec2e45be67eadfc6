"""``tenxeval-tui merge REPORT...``: join the reports of ``run --shard K/N`` parts into one.

The parts' cases are put back in the whole run's order (each sharded report records
every case's place: see :mod:`tenxeval_tui.runs.shards`). Reports run with different
configs, of different splits, or holding the same case twice are refused with one message
naming the files (exit code 2). A split whose parts are not all given (and whose cases
are missing) is merged, said on stderr, and the report is marked partial. Exit codes as
``run``: 0 when the pass rate meets ``--threshold`` and no case errored, else 1.

Only ``argparse`` is imported at module level: the parser is built for ``--help`` too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_USAGE = 2
DEFAULT_NAME = "merged.json"


def add_merge_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``tenxeval-tui merge``."""
    parser.add_argument(
        "reports", nargs="+", metavar="REPORT.json", help="JSON reports of `run --shard` parts"
    )
    parser.add_argument(
        "-o",
        "--output",
        action="append",
        dest="outputs",
        metavar="FILE",
        help="where the merged report goes, in the format its ending names (.json, .jsonl, "
        f".csv, .html, .xml; repeatable; default: {DEFAULT_NAME} beside the first report)",
    )
    parser.add_argument(
        "--threshold", type=float, default=1.0, help="pass rate needed to exit 0 (default: 1.0)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


def _fail(message: str) -> int:
    from tenxeval_tui.evaluation.inert import inert

    print(inert(f"tenxeval-tui merge: {message}", multiline=True), file=sys.stderr)
    return EXIT_USAGE


def merge_command(args: argparse.Namespace) -> int:
    """Run ``tenxeval-tui merge`` with parsed ``args``; returns the exit code."""
    from tenxeval_tui.cli.colour import colour_wanted
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.evaluation.reporters import print_report
    from tenxeval_tui.evaluation.reporters.files import reporter_for_path, write_report
    from tenxeval_tui.runs.outcome import exit_code
    from tenxeval_tui.runs.shards import MergeError, merge_reports, missing_shards

    outputs = [Path(o) for o in args.outputs or []] or [Path(args.reports[0]).parent / DEFAULT_NAME]
    for output in outputs:
        try:
            reporter_for_path(output)
        except ValueError as exc:
            return _fail(f"-o {output}: {exc}")
    if not 0.0 <= args.threshold <= 1.0:
        return _fail(f"--threshold: {args.threshold} is not between 0 and 1")
    parts: list[tuple[str, EvalReport]] = []
    for name in args.reports:
        try:
            parts.append((name, EvalReport.from_file(name)))
        except EvalFileError as exc:
            return _fail(str(exc))
        except OSError as exc:
            return _fail(f"{name}: {exc.strerror or exc}")
    try:
        merged = merge_reports(parts)
    except MergeError as exc:
        return _fail(str(exc))
    missing = missing_shards([report for _, report in parts])
    if missing:
        print(
            inert(
                f"tenxeval-tui merge: warning: no report of shard {', '.join(missing)}: "
                "the merged report is partial"
            ),
            file=sys.stderr,
        )
    written: list[Path] = []
    for output in outputs:
        try:
            written.append(write_report(merged, output))
        except OSError as exc:
            return _fail(f"cannot write {output}: {exc.strerror or exc}")
    if not args.quiet:
        print_report(merged, use_color=colour_wanted(sys.stdout))
    s = merged.summary
    print(
        inert(
            f"merged {len(parts)} reports: {s.passed_cases}/{s.total_cases} passed, "
            f"{s.failed_cases} failed, {s.error_cases} errored, pass rate {s.pass_rate:.1%}; "
            f"wrote {', '.join(map(str, written))}"
        )
    )
    return exit_code(merged, args.threshold)


__all__ = ["add_merge_arguments", "merge_command"]
