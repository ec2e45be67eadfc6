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
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.inert import inert

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
    agent_explicit: bool
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

    named = [Path(p) for p in paths] or [workspace.resolve(p) for p in workspace.settings.eval_sets]
    if not named:
        raise UsageError("no eval sets: name files or folders, or set eval_sets in [tool.tenxeval]")
    files: list[Path] = []
    for path in named:
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


def _check_criteria(config: EvalConfig, config_file: Path | None, preset: str | None) -> None:
    """Every criterion is known and set up (judges included), before any agent is loaded."""
    from tenxeval_tui.evaluation.criteria import CriterionConfigError, build_criteria

    source = str(config_file) if config_file else f"--preset {preset}" if preset else "criteria"
    try:
        criteria = build_criteria(config)
    except CriterionConfigError as exc:
        raise UsageError(f"{source}: {exc}") from None
    if not criteria:  # e.g. a misspelt "criteria" key, which configs ignore like any unknown
        print(
            inert(f"tenxeval-tui run: warning: {source}: no criteria enabled, so every case that ")
            + "runs without an error passes",
            file=sys.stderr,
        )


def _check_output_dir(folder: Path) -> None:
    """Reports can be written to ``folder`` (made if missing), before anything runs."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(f"{folder}: cannot write reports here: {exc.strerror or exc}") from None


def build_plan(args: argparse.Namespace) -> RunPlan:
    """Resolve flags and settings into a :class:`RunPlan`; :class:`UsageError` on any problem."""
    from tenxeval_tui.workspace import open_workspace

    workspace = open_workspace(Path.cwd())
    if workspace.problems:
        raise UsageError("\n".join(str(p) for p in workspace.problems))
    settings = workspace.settings
    # No agent here is fine when every eval set names its own (checked once they load).
    agent = args.agent or settings.agent or ""
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

    try:
        if agent:
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
        if not (args.timeout > 0 and math.isfinite(args.timeout)):
            raise UsageError("--timeout: must be a number of seconds more than 0")
        config.timeout = args.timeout
    reporter = config.reporter
    if args.output_dir:
        reporter.output_dir = args.output_dir
    elif "output_dir" in settings.model_fields_set:
        reporter.output_dir = str(workspace.resolve(settings.output_dir))
    reporter.junit_xml = reporter.junit_xml or args.junit
    reporter.html = reporter.html and not args.no_html
    tags = _split_tags(args.tags)
    if args.tags and not tags:
        raise UsageError("--tags: no tag given (use --tags NAME[,NAME...])")
    _check_criteria(config, config_file, args.preset)
    _check_output_dir(Path(reporter.output_dir))
    return RunPlan(
        agent=agent,
        agent_explicit=bool(args.agent),
        agent_folder=agent_folder,
        files=files,
        config=config,
        config_file=config_file,
        threshold=args.threshold,
        tags=tags,
        cases=list(args.cases or []),
    )


def load_eval_sets(plan: RunPlan) -> list[tuple[Path, EvalSet]]:
    """Load and filter the plan's eval sets (by tags, then by case ids), with their files."""
    from tenxeval_tui.evaluation.dataset import EvalSet
    from tenxeval_tui.evaluation.errors import EvalFileError

    loaded: list[tuple[Path, EvalSet]] = []
    for file in plan.files:
        try:
            loaded.append((file, EvalSet.from_file(file)))
        except EvalFileError as exc:
            raise UsageError(str(exc)) from None
        except FileNotFoundError:
            raise UsageError(f"{file}: file not found") from None
    unknown = set(plan.cases) - {c.eval_id for _, s in loaded for c in s.eval_cases}
    if unknown:
        raise UsageError(
            f"--case: no case {', '.join(map(repr, sorted(unknown)))} in the eval sets"
        )
    selected: list[tuple[Path, EvalSet]] = []
    for file, eval_set in loaded:
        cases = eval_set.filter_by_tags(plan.tags) if plan.tags else list(eval_set.eval_cases)
        if plan.cases:
            cases = [c for c in cases if c.eval_id in plan.cases]
        if cases:
            selected.append((file, eval_set.model_copy(update={"eval_cases": cases})))
    if not selected:
        if plan.tags or plan.cases:
            raise UsageError("no case matches --tags/--case in the eval sets")
        raise UsageError(f"{', '.join(map(str, plan.files))}: no cases to run")
    return selected


def _quiet_logging(verbose: bool) -> None:
    import logging

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    else:
        # Agents' frameworks log errors with tracebacks; the report already says what failed.
        logging.getLogger().addHandler(logging.NullHandler())
        logging.getLogger().setLevel(logging.CRITICAL)


def _names_own_agent(eval_set: EvalSet) -> bool:
    """Whether ``eval_set`` names its own agent (``metadata.agent``)."""
    from tenxeval_tui.evaluation.targets.loader import EVAL_SET_AGENT_KEY

    return EVAL_SET_AGENT_KEY in eval_set.metadata


def execute(plan: RunPlan, args: argparse.Namespace) -> int:
    """Run the plan: evaluate, combine, write reports, print the summary; returns the exit code."""
    import asyncio

    from tenxeval_tui.evaluation.results import EvalReport
    from tenxeval_tui.evaluation.runner import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, agent_spec_for, load_agent
    from tenxeval_tui.progress import make_progress

    files_and_sets = load_eval_sets(plan)
    eval_sets = [eval_set for _, eval_set in files_and_sets]
    _quiet_logging(args.verbose)
    pairs: dict[str, tuple[Any, Any]] = {}  # one load per agent, shared by its eval sets
    evaluations = []
    for file, eval_set in files_and_sets:
        try:
            spec = agent_spec_for(eval_set, plan.agent, explicit=plan.agent_explicit)
            if spec not in pairs:
                pairs[spec] = load_agent(spec, cwd=plan.agent_folder)
        except AgentLoadError as exc:
            own = not plan.agent_explicit and _names_own_agent(eval_set)
            raise UsageError(f"{file}: metadata.agent: {exc}" if own else str(exc)) from None
        evaluations.append((*pairs[spec], eval_set))
    run_config = plan.config.model_copy(deep=True)
    run_config.reporter.enabled = False  # one report (combined when several) written below
    progress = make_progress(sum(len(s.eval_cases) for s in eval_sets), quiet=args.quiet)
    runner = EvaluationRunner(run_config, observers=[progress])
    finished: list[EvalReport] = []

    async def evaluate() -> None:
        # One eval set at a time, so that two files sharing an eval_set_id both count.
        for evaluation in evaluations:
            finished.extend((await runner.run([evaluation])).values())

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
    written = _write_reports(report, plan, args)
    if interrupted:
        return EXIT_INTERRUPTED
    return exit_code(report, plan.threshold) if written else EXIT_FAILED


def exit_code(report: EvalReport, threshold: float) -> int:
    """0 when the pass rate meets ``threshold`` and no case errored, else 1."""
    summary = report.summary
    ok = summary.total_cases > 0 and summary.pass_rate >= threshold and summary.error_cases == 0
    return EXIT_OK if ok else EXIT_FAILED


def _write_reports(report: EvalReport, plan: RunPlan, args: argparse.Namespace) -> bool:
    """Write the report files, then print; ``False`` when a report file was not written."""
    from tenxeval_tui.evaluation.reporters import ReporterManager, print_report

    reporter = plan.config.reporter.model_copy()
    reporter.console = False
    # Files first: a closed stdout (``| head``) must not cost the reports.
    output = ReporterManager(reporter).run_all(report)
    for name, message in output.errors:
        print(inert(f"report {name} failed: {message}", multiline=True), file=sys.stderr)
    if not args.quiet:
        print_report(report, verbose=args.verbose, use_color=sys.stdout.isatty())
    if not args.quiet:
        for path in output.generated_files:
            print(inert(f"wrote {path}"))
    s = report.summary
    verdict = "PASSED" if exit_code(report, plan.threshold) == EXIT_OK else "FAILED"
    print(
        f"{verdict}: {s.passed_cases}/{s.total_cases} passed, {s.failed_cases} failed, "
        f"{s.error_cases} errored, pass rate {s.pass_rate:.1%} (threshold {plan.threshold:.1%})"
    )
    if output.errors:
        print("FAILED: some report files were not written (see above)", file=sys.stderr)
    if args.open and output.html_path:
        import webbrowser

        webbrowser.open(Path(output.html_path).resolve().as_uri())
    return not output.errors


def run_command(args: argparse.Namespace) -> int:
    """``tenxeval-tui run``: the exit code (usage errors are printed, never raised)."""
    try:
        plan = build_plan(args)
        if args.watch:
            from tenxeval_tui.watchrun import watch_loop

            return watch_loop(plan, args)
        return execute(plan, args)
    except UsageError as exc:
        print(inert(f"tenxeval-tui run: {exc}", multiline=True), file=sys.stderr)
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
