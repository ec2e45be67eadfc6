"""``tenxeval-tui rescore REPORT``: score a finished run again without calling the agent.

Every criterion of the config is recomputed from what the report stored of each run (see
:func:`~tenxeval_tui.evaluation.rescore.rescore_report`): change a threshold, add or drop
a criterion, and see the verdicts at once. The config is ``--config FILE`` or
``--preset NAME``, else the one the report was scored with (``config_used``), so a plain
``rescore REPORT`` reproduces the report's scores. Exit codes as ``run``: 0 when the pass
rate meets ``--threshold`` and no case errored, 1 otherwise, 2 for a file or config that
cannot be used (one message naming it, no traceback).

Only ``argparse`` is imported at module level: the parser is built for ``--help`` too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_USAGE = 2


def add_rescore_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``tenxeval-tui rescore``."""
    parser.add_argument("report", metavar="REPORT.json", help="a JSON report of a run")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--config", metavar="FILE", help="an EvalConfig JSON file")
    source.add_argument("--preset", metavar="NAME", help="a preset (see `run --help`)")
    parser.add_argument(
        "--eval-set",
        action="append",
        dest="eval_sets",
        metavar="FILE",
        help="the eval set the run used: expectations (and case metadata such as "
        "context) come from it instead of the report (repeatable)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where the new report goes, in the format its ending names (.json, .jsonl, "
        ".csv, .html, .xml; default: REPORT.rescored.json beside the report)",
    )
    parser.add_argument(
        "--threshold",
        type=float,
        help="pass rate needed to exit 0 (default: as `run`'s: TENXEVAL_THRESHOLD, "
        "[tool.tenxeval], the user's settings, else 1.0)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


def _fail(message: str) -> int:
    from tenxeval_tui.evaluation.inert import inert

    print(inert(f"tenxeval-tui rescore: {message}", multiline=True), file=sys.stderr)
    return EXIT_USAGE


def rescore_command(args: argparse.Namespace) -> int:
    """Run ``tenxeval-tui rescore`` with parsed ``args``; returns the exit code."""
    from tenxeval_tui.cli.colour import colour_wanted
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.config.presets import preset_by_name
    from tenxeval_tui.evaluation.criteria import CriterionConfigError
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.evaluation.reporters import print_report
    from tenxeval_tui.evaluation.reporters.files import reporter_for_path, write_report
    from tenxeval_tui.evaluation.rescore import rescore_report
    from tenxeval_tui.evaluation.syncrun import run_main
    from tenxeval_tui.runs.outcome import exit_code

    output = Path(args.output) if args.output else Path(args.report).with_suffix(".rescored.json")
    try:
        reporter_for_path(output)
    except ValueError as exc:
        return _fail(f"-o {output}: {exc}")
    reading = args.report
    try:
        report = EvalReport.from_file(reading)
        if args.config:
            reading = args.config
            config = EvalConfig.from_file(reading)
        elif args.preset:
            config = preset_by_name(args.preset)
        else:
            config = EvalConfig.model_validate(report.config_used or {})
        eval_sets = []
        for path in args.eval_sets or []:
            reading = path
            eval_sets.append(EvalSet.from_file(path))
    except (EvalFileError, KeyError, ValueError) as exc:
        return _fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    except OSError as exc:
        # the bounded reads raise with the path in the message already (no strerror)
        return _fail(f"{reading}: {exc.strerror}" if exc.strerror else str(exc))
    try:
        rescored = run_main(rescore_report(report, config, eval_sets=eval_sets))
    except CriterionConfigError as exc:
        return _fail(str(exc))
    try:
        written = write_report(rescored, output)
    except OSError as exc:
        return _fail(f"cannot write {output}: {exc.strerror or exc}")
    if not args.quiet:
        print_report(rescored, use_color=colour_wanted(sys.stdout))
    calls = rescored.metadata.get("rescored", {})
    print(
        inert(
            f"rescored {len(rescored.results)} cases without the agent "
            f"({calls.get('judge_calls', 0)} judge calls, {calls.get('cache_hits', 0)} "
            f"from the cache); wrote {written}"
        )
    )
    return exit_code(rescored, args.threshold)


__all__ = ["add_rescore_arguments", "rescore_command"]
