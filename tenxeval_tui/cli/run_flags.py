"""The flags of ``tenxeval-tui run``.

A flag that is not given takes its value from ``TENXEVAL_<FLAG>`` (``TENXEVAL_THRESHOLD``),
then ``[tool.tenxeval]``, then the user's ``settings.toml`` (see
:mod:`tenxeval_tui.cli.run_settings`).

Kept apart from :mod:`tenxeval_tui.cli.headless` (which checks them) and importing only ``argparse``, ``os`` and ``re``, so that
``tenxeval-tui --help`` and ``run --help`` stay fast.
"""

from __future__ import annotations

import argparse
import os
import re


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``tenxeval-tui run``."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="EVAL_SET_OR_FOLDER",
        help="eval set or scenario files, or folders searched for *.evalset.json and "
        "*.scenarios.json (default: eval_sets of [tool.tenxeval])",
    )
    parser.add_argument(
        "--agent",
        action="append",
        dest="agents",
        metavar="MODULE:ATTR",
        help="the agent: a 10xGraph StateGraph, a factory returning one, or a plain agent "
        "function; the module is imported from the current folder (default: agent of "
        "[tool.tenxeval]); given more than once, each is a variant run side by side",
    )
    parser.add_argument(
        "--variants",
        metavar="FILE",
        help="run the variants of this TOML or JSON file side by side (name, agent, params "
        "of the agent's factory, session state; default: variants of [tool.tenxeval])",
    )
    parser.add_argument(
        "--baseline",
        metavar="NAME",
        help="with variants: exit 1 when another variant is significantly worse than NAME "
        "(without it, every variant's report must pass)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--config", metavar="FILE", help="an EvalConfig JSON file")
    source.add_argument(
        "--preset",
        metavar="NAME",
        help="a preset: default, strict, relaxed, tool_usage, response_quality, "
        "conversation_flow, quick_check, comprehensive, safety_check",
    )
    parser.add_argument(
        "--criteria-module",
        action="append",
        dest="criteria_modules",
        metavar="MODULE",
        help="import MODULE before the criteria are checked, to register custom criteria "
        "(repeatable; default: criteria_modules of [tool.tenxeval])",
    )
    parser.add_argument(
        "--user-model",
        metavar="MODEL",
        help="the simulated user's model for scenario files (default: the file's "
        "user_simulator_config.model, the config's, else $TENXEVAL_USER_MODEL or "
        "$TENXEVAL_JUDGE_MODEL); reached like the judges ($OPENAI_BASE_URL, $OPENAI_API_KEY)",
    )
    parser.add_argument(
        "--threshold",
        type=float,
        help="pass rate needed to exit 0 (default: 1.0)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="a key nothing reads in an eval set or the config (a typo such as tagz or "
        "treshold) stops the run before it starts, instead of a warning",
    )
    parser.add_argument("--concurrency", type=int, metavar="N", help="cases run at once")
    parser.add_argument(
        "--workers",
        metavar="N|auto",
        help="hand the cases out to N worker processes (auto: one per core), the "
        "concurrency split between them (default: the workers setting, else 1)",
    )
    parser.add_argument(
        "--backend",
        choices=["process", "ray"],
        help="where the workers run: local processes (the default) or Ray actors "
        "(needs the tenxeval-tui[ray] extra)",
    )
    parser.add_argument(
        "--address",
        metavar="ADDRESS",
        help="with --backend ray: the Ray cluster to join (default: start a local one)",
    )
    parser.add_argument(
        "--tools",
        choices=["live", "record", "replay", "replay-or-record"],
        help="the agent's tools: run them (live, the default), run and record every call "
        "(record), answer each call from the recording, never running a tool (replay), or "
        "replay what is recorded and record the rest (replay-or-record); see "
        "docs/guides/tools.md",
    )
    parser.add_argument(
        "--cassette",
        metavar="PATH",
        help="with --tools: the recorded calls' file (default: NAME.tools.jsonl beside each "
        "NAME.evalset.json; one eval set only)",
    )
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="time limit per case")
    parser.add_argument(
        "--tags",
        action="append",
        metavar="TAG[,TAG]",
        help="run only cases carrying every one of these tags (repeatable; with --any-tag: "
        "one of them)",
    )
    parser.add_argument(
        "--any-tag",
        action="store_true",
        help="with --tags: run the cases carrying any one of the tags, not every one (as the "
        "workbench's #tag filter does)",
    )
    parser.add_argument(
        "--case",
        action="append",
        dest="cases",
        metavar="ID",
        help="run only this case (repeatable)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="N",
        help="run each case N times (a case's or eval set's metadata.repeats wins)",
    )
    parser.add_argument(
        "--pass-rule",
        metavar="all|RATE",
        help="when a repeated case passes: all its runs pass (all, the default), or at "
        "least RATE of them (a number in (0, 1], e.g. 0.8)",
    )
    parser.add_argument(
        "--limit", type=int, metavar="N", help="run only the first N selected cases"
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="run N of the selected cases drawn at random (in file order; see --seed)",
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="the seed of --sample: the same seed, the same cases"
    )
    parser.add_argument(
        "--shard",
        metavar="K/N",
        help="run only part K of N stable parts of the selected cases (by a hash of eval set "
        "id and case id), e.g. one CI matrix job each; join the reports with `merge`",
    )
    parser.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="start no case that would take the run's cost past USD (needs prices in the config)",
    )
    parser.add_argument("--output-dir", metavar="DIR", help="where report files are written")
    parser.add_argument(
        "-o",
        "--output",
        action="append",
        dest="outputs",
        metavar="FILE",
        help="also write the report to FILE, in the format its ending names: .json, .jsonl, "
        ".csv, .html, .xml (JUnit) (repeatable)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        dest="json_summary",
        help="print only a JSON summary on stdout (the rest goes to stderr)",
    )
    parser.add_argument(
        "--error-exit-code",
        type=int,
        metavar="N",
        help="exit N (1 to 125) when any case errored (default: 1, as for a failed run)",
    )
    parser.add_argument("--junit", action="store_true", help="also write a JUnit XML report")
    parser.add_argument("--no-html", action="store_true", help="do not write the HTML report")
    parser.add_argument("--open", action="store_true", help="open the HTML report in a browser")
    parser.add_argument(
        "--log-level",
        type=str.lower,
        choices=["debug", "info", "warning", "error", "critical"],
        metavar="LEVEL",
        help="show log records from LEVEL up (debug, info, warning, error, critical), the "
        "agent's included (default: none; with -v, info)",
    )
    noise = parser.add_mutually_exclusive_group()
    noise.add_argument("-q", "--quiet", action="store_true", help="print only the final summary")
    noise.add_argument(
        "-v", "--verbose", action="store_true", help="print every case's criteria and logs"
    )
    parser.add_argument(
        "--from-journal",
        metavar="JOURNAL",
        help="run nothing: write the reports of the cases a killed run's journal "
        "(OUTPUT_DIR/run-*.journal.jsonl) recorded",
    )
    parser.add_argument(
        "--retry-errors",
        type=int,
        metavar="N",
        help="run the cases that errored again, up to N times; each keeps its last result",
    )
    parser.add_argument(
        "--resume",
        metavar="JOURNAL",
        help="run only the cases a killed run's journal (OUTPUT_DIR/run-*.journal.jsonl) has "
        "no result for, and write one report of them all",
    )
    parser.add_argument(
        "--reuse",
        nargs="?",
        const="all",
        metavar="passed",
        help="take the result of each case whose fingerprint (its content, the agent's code, "
        "the config, the judge models) is that of its newest result in a report in the "
        "output folder, and run the rest; --reuse passed: only passing results (errored "
        "results always run again)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="rerun when an eval set or the agent's code changes (Ctrl-C to stop)",
    )


def wants_spare_worker(args: argparse.Namespace) -> bool:
    """Whether ``run``'s flags ask for one run in one worker child, which can then be
    started before they are checked (:mod:`~tenxeval_tui.runs.spare_worker`): not
    ``--from-journal`` (no worker), ``--watch`` (a worker a change) nor variants (a
    session each)."""
    several_agents = len(args.agents or ()) > 1
    one_worker = not (args.from_journal or args.watch or args.variants or several_agents)
    return one_worker and not _flags_show_a_usage_error(args)


def _flags_show_a_usage_error(args: argparse.Namespace) -> bool:
    """Whether the flags alone, without an import or a file read, show a usage error that
    :func:`~tenxeval_tui.cli.headless.prepare_run` will report (exit 2): no worker is then
    started only to be ended. A rough look, not the check: what it misses still starts a
    worker that is ended, and a run it wrongly doubts only starts its worker later."""
    threshold = args.threshold
    if isinstance(threshold, float) and not 0.0 <= threshold <= 1.0:
        return True
    if any(not os.path.exists(path) for path in args.paths):
        return True
    if args.tags is not None and not any(t.strip() for item in args.tags for t in item.split(",")):
        return True
    if args.any_tag and args.tags is None:
        return True
    if args.shard is not None:
        parts = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", args.shard)
        return parts is None or not 1 <= int(parts[1]) <= int(parts[2])
    return False


__all__ = ["add_run_arguments", "wants_spare_worker"]
