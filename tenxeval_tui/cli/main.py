"""The ``tenxeval-tui`` command.

Imports stay inside the command functions so that ``--help`` loads neither
Textual, 10xgraph nor any agent.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tenxeval_tui import __version__

if TYPE_CHECKING:
    from tenxeval_tui.runs.spare_worker import SpareWorker


def cmd_validate(args: argparse.Namespace) -> int:
    """Print every problem of every eval set and scenario file; exit 1 when there is any."""
    from tenxeval_tui.cli.validate_command import validate_command

    return validate_command(args)


def cmd_open(args: argparse.Namespace) -> int:
    """Open the workbench on a folder or one eval set file."""
    from tenxeval_tui.evaluation.long_lived import long_lived_imports

    with long_lived_imports():
        from tenxeval_tui.app import WorkbenchApp
        from tenxeval_tui.cli.run_settings import judge_environment_for

    # the judge model and endpoint of [tool.tenxeval] or the user's settings, for the runs
    os.environ.update(judge_environment_for(Path(args.path).expanduser().resolve()))
    app = WorkbenchApp(args.path, watch_runs=args.watch)
    app.run()
    return app.return_code or 0  # 129 when the terminal went away


def cmd_run(args: argparse.Namespace, spare: SpareWorker | None = None) -> int:
    """Evaluate an agent on eval sets without the UI (see :mod:`tenxeval_tui.cli.run_command`).
    ``spare``: the run's worker child, started by :func:`main` before the parser was built;
    else it is started here when the flags want one."""
    # The worker child starts first: its imports overlap this process's (issue #38).
    if spare is None:
        from tenxeval_tui.cli.run_flags import wants_spare_worker
        from tenxeval_tui.runs.spare_worker import SpareWorker  # only the standard library

        spare = SpareWorker.start() if wants_spare_worker(args) else None
    from tenxeval_tui.cli.run_command import run_command

    return run_command(args, spare)


class _QuietParser(argparse.ArgumentParser):
    """A parser that raises on a bad command line instead of printing it and exiting."""

    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def early_run(argv: Sequence[str]) -> bool:
    """Whether ``argv`` is a ``run`` whose flags :func:`_early_run` reads (no ``--help``)."""
    return argv[:1] == ["run"] and not any(a in ("-h", "--help") for a in argv)


def _early_run(argv: Sequence[str]) -> tuple[argparse.Namespace, SpareWorker | None] | None:
    """``run``'s flags, read with ``run``'s parser alone when ``argv`` is a ``run``
    (:func:`early_run`), and its worker child, started before anything else when they want
    one (:func:`~tenxeval_tui.cli.run_flags.wants_spare_worker`): its imports then overlap
    this process's checks (issue #38). The console script forks it from this process
    (:func:`~tenxeval_tui.runs.forked_spare.start_forked`), else it is started afresh.
    ``None`` for another command, or a command line ``run``'s flags cannot read (the whole
    parser says why, or :func:`cmd_run` starts the worker). The flags read here are the
    whole parser's for a ``run``: it is not built then (its every command's flags and
    their modules, 28 ms of each run's parent)."""
    if not early_run(argv):
        return None
    from tenxeval_tui.cli.run_flags import add_run_arguments, wants_spare_worker

    parser = _QuietParser(prog="tenxeval-tui run", add_help=False)
    add_run_arguments(parser)
    try:
        args = parser.parse_args(argv[1:])
    except ValueError:
        return None
    spare = _spare_worker() if wants_spare_worker(args) else None
    args.command, args.func = "run", cmd_run  # what the whole parser's `run` sets
    return args, spare


def _spare_worker() -> SpareWorker | None:
    """A run's spare worker: forked from this process when it may be, else started."""
    from tenxeval_tui.runs.forked_spare import start_forked
    from tenxeval_tui.runs.spare_worker import SpareWorker

    return start_forked() or SpareWorker.start()


def add_run_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``run`` subcommand (its flags live in :mod:`tenxeval_tui.cli.run_flags`)."""
    from tenxeval_tui.cli.run_flags import add_run_arguments

    run = sub.add_parser(
        "run",
        help="evaluate an agent on eval sets headless (CI): reports, exit code 0/1/2",
        description="Evaluate an agent on eval sets without the UI. Exit codes: 0 when the "
        "pass rate meets --threshold and no case errored, 1 otherwise, 2 for usage or "
        "configuration errors, 130 when interrupted.",
        epilog="A flag not given takes its value from its TENXEVAL_* environment variable "
        "(--concurrency: TENXEVAL_CONCURRENCY), then [tool.tenxeval] of pyproject.toml, then "
        "the user's settings.toml; `tenxeval-tui settings` shows where each value comes from.",
    )
    add_run_arguments(run)
    run.set_defaults(func=cmd_run)


def _load_report_or_none(path: str) -> object | None:
    """The report at ``path``, or ``None`` after printing why it cannot be read."""
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.inert import inert

    try:
        return EvalReport.from_file(path)
    except EvalFileError as exc:
        print(inert(f"cannot read report: {exc}", multiline=True), file=sys.stderr)
    except OSError as exc:
        reason = f"{path}: {exc.strerror}" if exc.strerror else str(exc)
        print(inert(f"cannot read report: {reason}", multiline=True), file=sys.stderr)
    return None


def _warn_if_partial_or_empty(*sides: tuple[str, str, Any]) -> None:
    """A warning on stderr for each side of a comparison that holds no case or is the
    report of a run that did not finish: its figures would mislead unsaid."""
    from tenxeval_tui.browsing.reports_index import report_caveat
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.evaluation.selection_marks import selection_of

    for side, path, report in sides:
        caveat = report_caveat(report.summary.total_cases, partial=report.is_partial)
        if caveat is not None:
            print(inert(f"warning: the {side} report {path} {caveat}"), file=sys.stderr)
        mark = selection_of(report.metadata)
        if mark is not None:
            print(
                inert(
                    f"note: the {side} report {path} is a selection of its eval set's cases "
                    f"({mark.text}): the cases it did not run show as not run, and the pass "
                    "rates are over the cases both reports ran"
                ),
                file=sys.stderr,
            )


def cmd_compare(args: argparse.Namespace) -> int:
    """Print how CURRENT differs from BASELINE; exit 1 on any regression, 2 on a bad file.

    ``latest`` and ``previous`` stand for the newest report of an eval set in the output
    folder and the full run before it (see :mod:`tenxeval_tui.cli.report_names`); with
    either, every eval set there is compared, or only ``--eval-set ID``.
    """
    from tenxeval_tui.cli.report_names import ReportNameError, resolve_pairs
    from tenxeval_tui.evaluation.analysis.compare import compare_reports
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.inert import inert, inert_json

    if args.more or args.matrix:
        from tenxeval_tui.cli.compare_matrix import compare_matrix

        paths = [args.baseline, args.current, *args.more]
        if words := [p for p in paths if p in ("latest", "previous")]:
            print(
                f"compare: {words[0]!r} names one report of two; name the reports", file=sys.stderr
            )
            return 2
        return compare_matrix(paths, _load_report_or_none, as_json=args.json)
    try:
        pairs = resolve_pairs(args.baseline, args.current, args.output_dir, args.eval_set)
    except ReportNameError as exc:
        print(inert(str(exc), multiline=True), file=sys.stderr)
        return 2
    regressed = False
    for baseline_path, current_path in pairs:
        baseline = _load_report_or_none(baseline_path)
        current = _load_report_or_none(current_path)
        if not isinstance(baseline, EvalReport) or not isinstance(current, EvalReport):
            return 2
        _warn_if_partial_or_empty(
            ("baseline", baseline_path, baseline), ("current", current_path, current)
        )
        comparison = compare_reports(baseline, current, strict=args.strict)
        warning = comparison.eval_set_warning()
        if warning is not None:  # on stderr too: visible with --json, or under a long listing
            print(inert(f"warning: {current_path}: {warning}"), file=sys.stderr)
        form = "json" if args.json else args.format
        if len(pairs) > 1 and form == "text":
            print(inert(f"== {baseline_path} -> {current_path}"))
        if form == "json":
            print(inert_json(comparison.model_dump_json(indent=2)))
        elif form == "markdown":
            from tenxeval_tui.browsing.markdown_summary import markdown_summary

            print(markdown_summary(baseline, current, comparison))
        else:
            print(inert(comparison.format_summary(), multiline=True))
        regressed = regressed or comparison.has_regressions
    return 1 if regressed else 0


def cmd_rescore(args: argparse.Namespace) -> int:
    """Score a report again without the agent (see :mod:`tenxeval_tui.cli.rescore_command`)."""
    from tenxeval_tui.cli.rescore_command import rescore_command
    from tenxeval_tui.cli.run_settings import judge_environment_for, threshold_for
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.settings.layers import SettingsError

    os.environ.update(judge_environment_for(Path.cwd()))  # as `run` does
    if args.threshold is None:
        try:
            args.threshold = threshold_for(Path.cwd())
        except SettingsError as exc:
            print(inert(f"tenxeval-tui rescore: {exc}", multiline=True), file=sys.stderr)
            return 2
    return rescore_command(args)


def cmd_merge(args: argparse.Namespace) -> int:
    """Join ``run --shard`` reports (see :mod:`tenxeval_tui.cli.merge_command`)."""
    from tenxeval_tui.cli.merge_command import merge_command

    return merge_command(args)


def cmd_completion(args: argparse.Namespace) -> int:
    """Print the shell completion script for ``args.shell`` (generated from the parser)."""
    import shtab

    print(shtab.complete(build_parser(), shell=args.shell))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tenxeval-tui``."""
    parser = argparse.ArgumentParser(
        prog="tenxeval-tui",
        usage="%(prog)s [--watch] [PATH]\n       %(prog)s COMMAND ...",
        description="A terminal workbench for authoring and running AI-agent evaluations.",
        epilog="With no COMMAND, `tenxeval-tui [PATH]` opens the workbench on PATH, a folder "
        "or one eval set file (default: the current folder); with --watch it opens on the "
        "run view with watch mode on.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # prog: the subcommands' usage lines would repeat the two-line usage above
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="tenxeval-tui")
    validate = sub.add_parser(
        "validate",
        help="check eval set and scenario files and print every problem (file:line:column)",
    )
    validate.add_argument("paths", nargs="*", metavar="FILE_OR_FOLDER")
    validate.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    validate.add_argument(
        "--check-agent",
        action="store_true",
        help="also check expected tool calls (names, arguments, types) and node names "
        "against each eval set's agent (metadata.agent, else [tool.tenxeval] agent): "
        "warnings, the exit status stays",
    )
    validate.add_argument(
        "--agent",
        metavar="MODULE:ATTR",
        help="--check-agent against this agent (it wins over the eval sets' own)",
    )
    validate.add_argument(
        "--config",
        metavar="FILE",
        help="also check this eval config file (its criteria and their settings)",
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="keys nothing reads (a typo such as tagz or treshold) are errors, not warnings",
    )
    validate.set_defaults(func=cmd_validate)
    add_run_parser(sub)

    compare = sub.add_parser(
        "compare",
        help="compare two JSON reports (or several, as a matrix); exit 1 when a case "
        "regressed (2: unreadable file)",
    )
    compare.add_argument(
        "baseline",
        metavar="BASELINE",
        help="a JSON report, or `previous` / `latest` (`previous`: the eval set's last full "
        "run before `latest`, passing over reruns, filtered runs, shard parts, partial runs)",
    )
    compare.add_argument("current", metavar="CURRENT", help="a JSON report, or `latest`")
    compare.add_argument(
        "more",
        nargs="*",
        default=[],  # without a default argparse counts a "*" positional as required
        metavar="REPORT",
        help="more reports: all of them side by side as the variant matrix, BASELINE first "
        "(exit 1 when one is significantly worse than BASELINE)",
    )
    compare.add_argument(
        "--matrix", action="store_true", help="show two reports as the variant matrix too"
    )
    compare.add_argument("--json", action="store_true", help="print the comparison as JSON")
    compare.add_argument(
        "--format",
        choices=["text", "json", "markdown"],
        default="text",
        help="text (default), json (as --json), or markdown: a short summary for a "
        "pull-request comment",
    )
    compare.add_argument(
        "--strict",
        action="store_true",
        help="count every flip as a regression (by default a case run several times "
        "regresses only when its pass-rate drop is significant)",
    )
    compare.add_argument(
        "--output-dir",
        metavar="DIR",
        help="where `latest` and `previous` are looked up (default: where `run` writes: "
        "$TENXEVAL_OUTPUT_DIR, output_dir of [tool.tenxeval], the user's settings, "
        "else eval_reports)",
    )
    compare.add_argument(
        "--eval-set", metavar="ID", help="with `latest`/`previous`: only this eval set"
    )
    compare.set_defaults(func=cmd_compare)

    from tenxeval_tui.cli.rescore_command import add_rescore_arguments

    rescore = sub.add_parser(
        "rescore",
        help="score a report again with another config, without running the agent",
        description="Recompute every criterion from what REPORT stored (tool calls, "
        "trajectory, replies): the agent does not run. Judged criteria go through the "
        "judge cache. Exit codes as `run`.",
    )
    add_rescore_arguments(rescore)
    rescore.set_defaults(func=cmd_rescore)

    from tenxeval_tui.cli.merge_command import add_merge_arguments

    merge = sub.add_parser(
        "merge",
        help="join the reports of `run --shard K/N` parts into one report, in eval-set order",
        description="Join the JSON reports of `run --shard K/N` parts into one, the cases in "
        "the whole run's order. Reports of different configs or splits, or holding the same "
        "case twice, are refused (exit code 2). Exit codes otherwise as `run`.",
    )
    add_merge_arguments(merge)
    merge.set_defaults(func=cmd_merge)

    from tenxeval_tui.cli.history_parsers import add_history_parsers

    add_history_parsers(sub)

    from tenxeval_tui.cli.agreement_command import add_agreement_parser
    from tenxeval_tui.cli.cache_command import add_cache_parser
    from tenxeval_tui.cli.import_command import add_import_parser
    from tenxeval_tui.cli.schema_command import add_schema_parser
    from tenxeval_tui.cli.settings_command import add_settings_parser

    add_import_parser(sub)
    add_agreement_parser(sub)
    add_cache_parser(sub)
    add_settings_parser(sub)
    add_schema_parser(sub)

    completion = sub.add_parser(
        "completion",
        help='print a shell completion script: `eval "$(tenxeval-tui completion bash)"`',
    )
    completion.add_argument("shell", choices=["bash", "zsh"])
    completion.set_defaults(func=cmd_completion)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def _open_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tenxeval-tui", add_help=False)
    parser.add_argument("path", nargs="?", default=".")
    parser.add_argument("--watch", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    run_args, spare = _early_run(argv) or (None, None)
    try:
        return _main(argv, spare, run_args)
    finally:
        if spare is not None:
            spare.discard()  # nothing once handed its plan


def _main(argv: list[str], spare: SpareWorker | None, run_args: argparse.Namespace | None) -> int:
    from tenxeval_tui.evaluation.files.textfiles import max_file_problem

    if (problem := max_file_problem()) is not None:  # never ignored quietly
        print(f"tenxeval-tui: {problem}", file=sys.stderr)
        return 2
    if run_args is not None:  # a `run` whose flags were read already (_early_run)
        args = run_args
    else:
        parser = build_parser()
        # `tenxeval-tui [PATH]` opens the app; argparse cannot mix an optional positional
        # with subcommands, so a first word that is no command is read as PATH.
        if argv[:1] == ["--watch"] and (len(argv) == 1 or argv[1] not in _command_names(parser)):
            return cmd_open(_open_parser().parse_args(argv))  # `tenxeval-tui --watch [PATH]`
        if not argv or (not argv[0].startswith("-") and argv[0] not in _command_names(parser)):
            return cmd_open(_open_parser().parse_args(argv))
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
    try:
        code: int = cmd_run(args, spare) if args.func is cmd_run else args.func(args)
    except BrokenPipeError:
        # stdout closed early (``| head``): stop quietly, as command-line tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return code
