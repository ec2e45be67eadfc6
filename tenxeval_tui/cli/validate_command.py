"""``tenxeval-tui validate``: every problem of eval set, scenario and config files.

Each problem is printed as ``file:line:column: json.path: message``; a file with one
fails the command (exit 1). Keys that nothing reads (``tagz``, ``expected_tool_use``, a
criterion's ``treshold``: typos that silently check nothing) are warnings naming the
nearest known key, or errors with ``--strict`` (for CI). ``--check-agent`` adds the
agent's warnings (:mod:`.validate_agent`), which never fail it; so do argument matchers
misspelt (an object with a ``$`` key that is no matcher, compared as written).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet, validate_eval_set_file
from tenxeval_tui.evaluation.dataset.expectation_checks import expectation_warnings
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.simulators.scenario import ScenarioSet, validate_scenario_file
from tenxeval_tui.evaluation.tools.file_check import tool_section_problems
from tenxeval_tui.evaluation.unknown_keys import unknown_keys_in_file
from tenxeval_tui.settings.workspace import is_scenario_path, run_files_in


def eval_set_files(paths: Sequence[str]) -> list[Path]:
    """The files named, and the eval set and scenario files of the folders named."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(run_files_in(path))
        else:
            files.append(path)
    return files


def config_problems(path: Path, severity: str = "warning") -> list[Problem]:
    """What is wrong with the eval config file ``path``: what stops it loading, else the
    keys nothing reads in it, each a ``severity``."""
    try:
        EvalConfig.from_file(path)
    except FileNotFoundError:
        return [Problem(str(path), "file not found")]
    except EvalFileError as exc:
        return exc.problems
    return unknown_keys_in_file(path, EvalConfig, severity=severity)


def _print(problems: Sequence[Problem]) -> None:
    for problem in problems:
        print(inert(str(problem), multiline=True))


def validate_command(args: argparse.Namespace) -> int:
    """Check the files ``args`` names; the exit code."""
    files = eval_set_files(args.paths)
    if not files and not args.config:
        print(
            "no eval set files found (looked for *.evalset.json and *.scenarios.json)",
            file=sys.stderr,
        )
        return 2
    checker = None
    if args.check_agent or args.agent:
        from tenxeval_tui.cli.validate_agent import AgentChecker

        checker = AgentChecker(args.agent)
    severity = "error" if args.strict else "warning"
    failed = 0
    if args.config:
        problems = config_problems(Path(args.config), severity)
        _print(problems)
        failed += any(not p.message.startswith("warning:") for p in problems)
        if not problems and not args.quiet:
            print(inert(f"{args.config}: ok"))
    for file in files:
        scenarios = is_scenario_path(file)
        problems = (validate_scenario_file if scenarios else validate_eval_set_file)(file)
        if not problems:
            # metadata.tools: free-form for 10xGraph, an error for each case of our runs
            problems = tool_section_problems(file)
        if not problems:
            model = ScenarioSet if scenarios else EvalSet
            problems = unknown_keys_in_file(file, model, severity=severity)
        _print(problems)
        if any(not p.message.startswith("warning:") for p in problems):
            failed += 1
            continue
        # Warnings ($ keys that are no matcher; with an agent, an unknown tool, a wrong
        # argument): printed, not failures.
        warnings = [] if scenarios else expectation_warnings(file)
        warnings += checker.check(file) if checker is not None else []
        _print(warnings)
        if not args.quiet and not warnings and not problems:
            print(inert(f"{file}: ok"))
    return 1 if failed else 0


__all__ = ["config_problems", "eval_set_files", "validate_command"]
