"""``tenxeval-tui run``: evaluate an agent on eval sets without the UI (shell and CI).

Settings come from ``[tool.tenxeval]`` (see :mod:`tenxeval_tui.workspace`) and
are overridden by flags. Exit codes: 0 when the pass rate meets the threshold
and no case errored, 1 otherwise, 2 for usage or configuration errors (each
printed as one message naming the file, the place and the problem), 130 when
interrupted.

Only the standard library is imported at module level, so that ``--help``
stays fast; the engine, rich and the agent are imported when a run starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config import EvalConfig
    from tenxeval_tui.evaluation.dataset import EvalSet
    from tenxeval_tui.evaluation.results import EvalReport
    from tenxeval_tui.workspace import Workspace

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A usage or configuration problem: printed as it is, exit code 2."""


@dataclass
class RunPlan:
    """Everything a run needs, resolved from flags and ``[tool.tenxeval]``."""

    agent: str
    agent_folder: Path
    files: list[Path]
    config: EvalConfig
    config_file: Path | None
    threshold: float
    tags: list[str]
    cases: list[str]


def _split_tags(raw: Sequence[str] | None) -> list[str]:
    return [tag.strip() for item in raw or () for tag in item.split(",") if tag.strip()]


def _eval_files(paths: Sequence[str], workspace: Workspace) -> list[Path]:
    from tenxeval_tui.workspace import EVAL_SET_SUFFIX

    if not paths:
        files = [workspace.resolve(p) for p in workspace.settings.eval_sets]
        if not files:
            raise UsageError(
                "no eval sets: name files or folders, or set eval_sets in [tool.tenxeval]"
            )
    else:
        files = []
        for raw in paths:
            path = Path(raw)
            if path.is_dir():
                found = sorted(path.rglob(f"*{EVAL_SET_SUFFIX}"))
                if not found:
                    raise UsageError(f"{path}: no *{EVAL_SET_SUFFIX} files in this folder")
                files.extend(found)
            else:
                files.append(path)
    for file in files:
        if not file.is_file():
            raise UsageError(f"{file}: file not found")
    return list(dict.fromkeys(files))


def _base_config(args: argparse.Namespace, workspace: Workspace) -> tuple[EvalConfig, Path | None]:
    from tenxeval_tui.evaluation.config import EvalConfig
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.presets import preset_by_name

    if args.preset:
        try:
            return preset_by_name(args.preset), None
        except KeyError as exc:
            raise UsageError(f"--preset: {exc.args[0]}") from None
    file = Path(args.config) if args.config else None
    if file is None and workspace.settings.config is not None:
        file = workspace.resolve(workspace.settings.config)
    if file is None:
        return EvalConfig.default(), None
    try:
        return EvalConfig.from_file(file), file
    except FileNotFoundError:
        raise UsageError(f"{file}: config file not found") from None
    except EvalFileError as exc:
        raise UsageError(str(exc)) from None


def build_plan(args: argparse.Namespace) -> RunPlan:
    """Resolve flags and settings into a :class:`RunPlan`; :class:`UsageError` on any problem."""
    from tenxeval_tui.workspace import open_workspace

    workspace = open_workspace(Path.cwd())
    if workspace.problems:
        raise UsageError("\n".join(str(p) for p in workspace.problems))
    settings = workspace.settings
    agent = args.agent or settings.agent
    if not agent:
        raise UsageError("no agent: pass --agent MODULE:ATTR or set agent in [tool.tenxeval]")
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

    try:
        parse_spec(agent)
    except AgentLoadError as exc:
        raise UsageError(str(exc)) from None
    # A flag's module is imported from the current folder (as uvicorn does); the
    # settings' from the folder of the pyproject.toml that names it.
    agent_folder = Path.cwd() if args.agent else workspace.resolve(Path("."))
    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold: {args.threshold} is not between 0 and 1")
    files = _eval_files(args.paths, workspace)
    config, config_file = _base_config(args, workspace)
    config = config.model_copy(deep=True)
    if args.concurrency is not None:
        if args.concurrency < 1:
            raise UsageError("--concurrency: must be at least 1")
        config.max_concurrency, config.parallel = args.concurrency, True
    elif "concurrency" in settings.model_fields_set:
        config.max_concurrency = settings.concurrency
    if args.timeout is not None:
        if args.timeout <= 0:
            raise UsageError("--timeout: must be more than 0 seconds")
        config.timeout = args.timeout
    reporter = config.reporter
    if args.output_dir:
        reporter.output_dir = args.output_dir
    elif "output_dir" in settings.model_fields_set:
        reporter.output_dir = str(workspace.resolve(settings.output_dir))
    reporter.junit_xml = reporter.junit_xml or args.junit
    reporter.html = reporter.html and not args.no_html
    return RunPlan(
        agent=agent,
        agent_folder=agent_folder,
        files=files,
        config=config,
        config_file=config_file,
        threshold=args.threshold,
        tags=_split_tags(args.tags),
        cases=list(args.cases or []),
    )


def load_eval_sets(plan: RunPlan) -> list[EvalSet]:
    """Load and filter the plan's eval sets (by tags, then by case ids)."""
    from tenxeval_tui.evaluation.dataset import EvalSet
    from tenxeval_tui.evaluation.errors import EvalFileError

    loaded: list[EvalSet] = []
    for file in plan.files:
        try:
            loaded.append(EvalSet.from_file(file))
        except EvalFileError as exc:
            raise UsageError(str(exc)) from None
        except FileNotFoundError:
            raise UsageError(f"{file}: file not found") from None
    unknown = set(plan.cases) - {c.eval_id for s in loaded for c in s.eval_cases}
    if unknown:
        raise UsageError(
            f"--case: no case {', '.join(map(repr, sorted(unknown)))} in the eval sets"
        )
    selected: list[EvalSet] = []
    for eval_set in loaded:
        cases = eval_set.filter_by_tags(plan.tags) if plan.tags else list(eval_set.eval_cases)
        if plan.cases:
            cases = [c for c in cases if c.eval_id in plan.cases]
        if cases:
            selected.append(eval_set.model_copy(update={"eval_cases": cases}))
    if not selected:
        raise UsageError("no case matches --tags/--case in the eval sets")
    return selected


def _quiet_logging(verbose: bool) -> None:
    import logging

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    else:
        # Agents' frameworks log errors with tracebacks; the report already says what failed.
        logging.getLogger().addHandler(logging.NullHandler())
        logging.getLogger().setLevel(logging.CRITICAL)


def execute(plan: RunPlan, args: argparse.Namespace) -> int:
    """Run the plan: evaluate, combine, write reports, print the summary; returns the exit code."""
    import asyncio

    from tenxeval_tui.evaluation.results import EvalReport
    from tenxeval_tui.evaluation.runner import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, load_agent
    from tenxeval_tui.progress import make_progress

    eval_sets = load_eval_sets(plan)
    _quiet_logging(args.verbose)
    try:
        app, collector = load_agent(plan.agent, cwd=plan.agent_folder)
    except AgentLoadError as exc:
        raise UsageError(str(exc)) from None
    run_config = plan.config.model_copy(deep=True)
    run_config.reporter.enabled = False  # one report (combined when several) written below
    progress = make_progress(sum(len(s.eval_cases) for s in eval_sets), quiet=args.quiet)
    runner = EvaluationRunner(run_config, observers=[progress])
    finished: list[EvalReport] = []

    async def evaluate() -> None:
        # One eval set at a time, so that two files sharing an eval_set_id both count.
        for eval_set in eval_sets:
            finished.extend((await runner.run([(app, collector, eval_set)])).values())

    interrupted = False
    try:
        with progress:
            asyncio.run(evaluate())
    except KeyboardInterrupt:
        interrupted = True
        # The interrupted eval set's finished cases are kept as a partial report.
        finished.extend(r for r in runner.results.values() if r.is_partial and r not in finished)
        print("interrupted: writing the report of the finished cases", file=sys.stderr)
    if not finished or not any(r.results for r in finished):
        return EXIT_INTERRUPTED if interrupted else EXIT_FAILED
    report = finished[0] if len(finished) == 1 else EvalReport.combine(finished)
    _write_reports(report, plan, args)
    return EXIT_INTERRUPTED if interrupted else exit_code(report, plan.threshold)


def exit_code(report: EvalReport, threshold: float) -> int:
    """0 when the pass rate meets ``threshold`` and no case errored, else 1."""
    summary = report.summary
    ok = summary.total_cases > 0 and summary.pass_rate >= threshold and summary.error_cases == 0
    return EXIT_OK if ok else EXIT_FAILED


def _write_reports(report: EvalReport, plan: RunPlan, args: argparse.Namespace) -> None:
    from tenxeval_tui.evaluation.reporters import ReporterManager, print_report

    reporter = plan.config.reporter.model_copy()
    reporter.console = False
    if not args.quiet:
        print_report(report, verbose=args.verbose, use_color=sys.stdout.isatty())
    output = ReporterManager(reporter).run_all(report)
    for name, message in output.errors:
        print(f"report {name} failed: {message}", file=sys.stderr)
    if not args.quiet:
        for path in output.generated_files:
            print(f"wrote {path}")
    s = report.summary
    verdict = "PASSED" if exit_code(report, plan.threshold) == EXIT_OK else "FAILED"
    print(
        f"{verdict}: {s.passed_cases}/{s.total_cases} passed, {s.failed_cases} failed, "
        f"{s.error_cases} errored, pass rate {s.pass_rate:.1%} (threshold {plan.threshold:.1%})"
    )
    if args.open and output.html_path:
        import webbrowser

        webbrowser.open(Path(output.html_path).resolve().as_uri())


def run_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui run``: the exit code (usage errors are printed, never raised)."""
    try:
        plan = build_plan(args)
        if args.watch:
            from tenxeval_tui.watchrun import watch_loop

            return watch_loop(plan, args)
        return execute(plan, args)
    except UsageError as exc:
        print(f"tenxeval-tui run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "RunPlan",
    "UsageError",
    "build_plan",
    "execute",
    "exit_code",
    "load_eval_sets",
    "run_command",
]
