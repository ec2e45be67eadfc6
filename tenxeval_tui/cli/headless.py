"""``tenxeval-tui run``: evaluate an agent on eval sets without the UI (shell and CI).

Flags and settings become a :class:`~tenxeval_tui.runs.plan.RunPlan`
(:func:`build_plan`), checked and selected as the worker will select it
(:func:`select_for_run`), run in the workbench's worker child (:func:`run_selected`) and
written as one report (:func:`publish`). Settings come from ``[tool.tenxeval]`` (see :mod:`tenxeval_tui.settings.workspace`) and
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
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tenxeval_tui.cli.colour import colour_wanted
from tenxeval_tui.cli.scenario_files import check_simulators, skip_unready_scenarios
from tenxeval_tui.cli.usage import UsageError
from tenxeval_tui.evaluation.inert import inert

if TYPE_CHECKING:
    from tenxeval_tui.cli.run_options import Published
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.evaluation.dataset.selection import Shard
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.runs.plan import RunPlan
    from tenxeval_tui.settings.layers import Resolved
    from tenxeval_tui.settings.workspace import Workspace

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class EmptyShard(Exception):
    """The ``--shard`` part holds none of the selected cases: nothing to run (exit code 0)."""


def _split_tags(raw: Sequence[str] | None) -> list[str]:
    return [tag.strip() for item in raw or () for tag in item.split(",") if tag.strip()]


def _eval_files(paths: Sequence[str], workspace: Workspace) -> tuple[list[Path], set[Path]]:
    """The files to run, and those of them that are scenario files a folder scan found."""
    from tenxeval_tui.settings.workspace import RUN_FILE_SUFFIXES, is_scenario_path, run_files_in

    named = [Path(p) for p in paths] or [workspace.resolve(p) for p in workspace.settings.eval_sets]
    if not named:
        raise UsageError("no eval sets: name files or folders, or set eval_sets in [tool.tenxeval]")
    from tenxeval_tui.evaluation.textfiles import not_regular_reason

    files: list[Path] = []
    scanned: set[Path] = set()
    for path in named:
        if path.is_dir():
            found = run_files_in(path)
            scanned.update(f for f in found if is_scenario_path(f))
            for odd in [f for f in found if not_regular_reason(f)]:
                # a FIFO or device found by the scan is never opened (it would block)
                print(
                    f"tenxeval-tui run: skipped {odd}: {not_regular_reason(odd)}", file=sys.stderr
                )
                found.remove(odd)
            if not found:
                wanted = " or ".join(f"*{suffix}" for suffix in RUN_FILE_SUFFIXES)
                raise UsageError(f"{path}: no {wanted} files in this folder")
            files.extend(found)
        else:
            files.append(path)
    for file in files:
        if reason := not_regular_reason(file):
            raise UsageError(f"{file}: {reason}")
        if not file.is_file():
            raise UsageError(f"{file}: file not found")
    return list(dict.fromkeys(files)), scanned - {p for p in named if not p.is_dir()}


def _base_config(args: argparse.Namespace, workspace: Workspace) -> tuple[EvalConfig, Path | None]:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.config.presets import preset_by_name
    from tenxeval_tui.evaluation.errors import EvalFileError

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
    """Resolve flags and settings into a :class:`~tenxeval_tui.runs.plan.RunPlan` (its config
    resolved, its criteria checked); :class:`UsageError` on any problem."""
    from tenxeval_tui.cli.run_settings import apply_settings
    from tenxeval_tui.evaluation.dataset.selection import CaseSelection
    from tenxeval_tui.runs.plan import RunPlan
    from tenxeval_tui.settings.layers import SettingsError
    from tenxeval_tui.settings.workspace import open_workspace

    workspace = open_workspace(Path.cwd())
    if workspace.problems:
        raise UsageError("\n".join(str(p) for p in workspace.problems))
    try:
        sources = apply_settings(args, workspace)
    except SettingsError as exc:
        raise UsageError(str(exc)) from None
    # No agent here is fine when every eval set names its own (checked once they load).
    agent = args.agent or ""
    agent_given = sources["agent"].layer in ("flag", "env")
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

    try:
        if agent:
            parse_spec(agent)
    except AgentLoadError as exc:
        raise UsageError(str(exc)) from None
    # A flag's module is imported from the current folder (as uvicorn does); the
    # settings' from the folder of the pyproject.toml that names it.
    agent_folder = Path.cwd() if agent_given else workspace.resolve(Path("."))
    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold: {args.threshold} is not between 0 and 1")
    files, scanned = (
        ([], set()) if getattr(args, "from_journal", None) else _eval_files(args.paths, workspace)
    )
    config, config_file = _base_config(args, workspace)
    config = config.model_copy(deep=True)
    if args.concurrency is not None:
        if args.concurrency < 1:
            raise UsageError("--concurrency: must be at least 1")
        # A concurrency set anywhere (flag, variable, project, settings file) asks for it;
        # with none, the config's `parallel` decides (False by default, as in 10xGraph).
        config.max_concurrency = args.concurrency
        config.parallel = True
    if args.timeout is not None:
        if not (args.timeout > 0 and math.isfinite(args.timeout)):
            raise UsageError("--timeout: must be a number of seconds more than 0")
        config.timeout = args.timeout
    from tenxeval_tui.cli.run_options import (
        FlagError,
        check_error_exit_code,
        check_outputs,
        subset_fields,
        tool_settings,
        with_run_flags,
    )

    try:
        config = with_run_flags(config, args)
        check_outputs(getattr(args, "outputs", None))
        subset = subset_fields(args)
        check_error_exit_code(getattr(args, "error_exit_code", None))
        tools = tool_settings(args, files)
    except FlagError as exc:
        raise UsageError(str(exc)) from None
    if getattr(args, "json_summary", False) and getattr(args, "watch", False):
        raise UsageError("--json: not with --watch (a watched run never ends with one summary)")
    retries = getattr(args, "retry_errors", None)
    if retries is not None and retries < 0:
        raise UsageError(f"--retry-errors: must be 0 or more, not {retries}")
    if getattr(args, "resume", None) and (
        getattr(args, "watch", False) or getattr(args, "from_journal", None)
    ):
        raise UsageError("--resume: not with --watch or --from-journal")
    reporter = config.reporter
    if sources["output_dir"].layer != "default":
        reporter.output_dir = args.output_dir
    reporter.junit_xml = reporter.junit_xml or args.junit
    reporter.html = reporter.html and not args.no_html
    tags = tuple(_split_tags(args.tags))
    if args.tags and not tags:
        raise UsageError("--tags: no tag given (use --tags NAME[,NAME...])")
    shard = _shard(args)
    workers, backend, address = _backend(args, sources, config)
    modules = _import_criteria_modules(args, workspace, agent_folder)
    _check_criteria(config, config_file, args.preset)
    user_model = getattr(args, "user_model", None) or None
    files = skip_unready_scenarios(files, scanned, config, user_model)
    _check_output_dir(Path(reporter.output_dir))
    return RunPlan(
        agent=agent,
        agent_explicit=agent_given,
        search_path=agent_folder,
        eval_sets=files,
        selection=CaseSelection(eval_ids=tuple(args.cases) if args.cases else None, tags=tags),
        config=config,
        config_file=config_file,
        criteria_modules=modules,
        limit=subset["limit"],
        sample=subset["sample"],
        seed=subset["seed"],
        shard=shard,
        workers=workers,
        backend=backend,
        ray_address=address,
        user_model=user_model,
        tools=tools,
    )


def _backend(
    args: argparse.Namespace, sources: Mapping[str, Resolved], config: EvalConfig
) -> tuple[int | None, Literal["process", "ray"], str | None]:
    """``--workers``, ``--backend`` and ``--address`` (``workers`` and ``backend`` filled
    from the settings' layers when no flag says), checked; :class:`UsageError` on a bad
    value, naming where it was set."""
    from tenxeval_tui.runs.pool import resolve_workers

    try:
        workers = resolve_workers(getattr(args, "workers", None))
    except ValueError as exc:
        raise UsageError(f"{sources['workers'].where}: {exc}") from None
    backend: Literal["process", "ray"] = (
        "ray" if getattr(args, "backend", None) == "ray" else "process"
    )
    address = getattr(args, "address", None)
    if address and backend != "ray":
        raise UsageError("--address: only goes with --backend ray")
    if backend == "ray":
        from tenxeval_tui.runs.ray_backend import ray_missing

        if problem := ray_missing():
            origin = sources["backend"]
            said = "--backend ray" if origin.layer == "flag" else f'{origin.where} = "ray"'
            raise UsageError(f"{said}: {problem}")
    if config.max_cost is not None and (backend == "ray" or (workers or 1) > 1):
        raise UsageError(
            "--max-cost: not with several workers (each would keep its own budget); "
            "run with --workers 1"
        )
    return workers, backend, address


def _shard(args: argparse.Namespace) -> Shard | None:
    """``--shard K/N`` as a shard; :class:`UsageError` when it is not one."""
    raw = getattr(args, "shard", None)
    if raw is None:
        return None
    from tenxeval_tui.evaluation.dataset.selection import Shard

    try:
        return Shard.parse(raw)
    except ValueError as exc:
        raise UsageError(f"--shard: {exc}") from None


def _import_criteria_modules(
    args: argparse.Namespace, workspace: Workspace, agent_folder: Path
) -> list[str]:
    """Import ``--criteria-module``s (from the current folder), or else the settings'
    ``criteria_modules`` (from the pyproject's folder); returns them."""
    from tenxeval_tui.runs.criteria_modules import CriteriaModuleError, import_criteria_modules

    flagged = list(getattr(args, "criteria_modules", None) or [])
    modules = flagged or list(workspace.settings.criteria_modules)
    source = "--criteria-module" if flagged else f"{workspace.settings_file}: tool.tenxeval"
    try:
        import_criteria_modules(modules, agent_folder)
    except CriteriaModuleError as exc:
        raise UsageError(f"{source}: {exc}") from None
    return modules


def select_for_run(plan: RunPlan) -> list[tuple[Path, EvalSet]]:
    """The plan's eval sets that hold selected cases, loaded and filtered (by
    :func:`~tenxeval_tui.runs.plan.select`, as the worker does); :class:`UsageError` when a
    file does not load, a ``--case`` is in none of them or nothing is selected."""
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.runs.plan import load_eval_sets, select

    try:
        loaded = load_eval_sets(plan.eval_sets)
    except EvalFileError as exc:
        raise UsageError(str(exc)) from None
    except FileNotFoundError as exc:
        raise UsageError(f"{exc.filename}: file not found") from None
    unknown = plan.selection.unknown_ids(c for _, s in loaded for c in s.eval_cases)
    if unknown:
        raise UsageError(f"--case: no case {', '.join(map(repr, unknown))} in the eval sets")
    selected = [(path, s) for path, s in select(plan, loaded) if s.eval_cases]
    if not selected and plan.shard is not None:
        unsharded = select(plan.model_copy(update={"shard": None}), loaded)
        if any(s.eval_cases for _, s in unsharded):
            among = sum(len(s.eval_cases) for _, s in unsharded)
            raise EmptyShard(f"--shard {plan.shard}: none of the {among} selected cases is in it")
    check_simulators(plan, selected)
    if not selected:
        if plan.selection.filters:
            raise UsageError("no case matches --tags/--case in the eval sets")
        raise UsageError(f"{', '.join(map(str, plan.eval_sets))}: no cases to run")
    if plan.limit is not None or plan.sample is not None:
        whole = plan.model_copy(update={"limit": None, "sample": None})
        among = sum(len(s.eval_cases) for _, s in select(whole, loaded))
        chosen = sum(len(s.eval_cases) for _, s in selected)
        how = f"--limit {plan.limit}" if plan.limit is not None else f"--sample {plan.sample}"
        seed = f" --seed {plan.seed}" if plan.seed is not None else ""
        print(f"running {chosen} of {among} selected cases ({how}{seed})", flush=True)
    if plan.shard is not None:
        unsharded = select(plan.model_copy(update={"shard": None}), loaded)
        among = sum(len(s.eval_cases) for _, s in unsharded)
        chosen = sum(len(s.eval_cases) for _, s in selected)
        print(f"running shard {plan.shard}: {chosen} of {among} selected cases", flush=True)
    return selected


def execute(
    plan: RunPlan, args: argparse.Namespace, *, published: list[Published] | None = None
) -> int:
    """Run ``plan`` (its files checked and selected by :func:`select_for_run`; with
    ``--resume``, less the cases its journal finished); returns the exit code. The report
    written is added to ``published``. A ``--shard`` part that holds no case runs nothing
    and exits 0."""
    try:
        selected = select_for_run(plan)
    except EmptyShard as exc:
        print(f"{exc}: nothing to run", flush=True)
        return EXIT_OK
    if not getattr(args, "resume", None):
        return run_selected(plan, selected, args, published=published)
    from tenxeval_tui.cli.retry_resume import resume_split

    journal = Path(args.resume)
    todo, done = resume_split(selected, _journal_reports(journal))
    finished = sum(len(report.results) for _, report in done)
    left = sum(len(s.eval_cases) for _, s in todo)
    print(f"resuming {journal}: {finished} case(s) finished, {left} to run", flush=True)
    return run_selected(plan, todo, args, published=published, done=done)


def _journal_reports(journal: Path) -> dict[str, EvalReport]:
    """The reports a journal recorded, by eval set id; :class:`UsageError` when it cannot be
    read."""
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.journal import read_journal

    try:
        return read_journal(journal)
    except FileNotFoundError:
        raise UsageError(f"{journal}: journal not found") from None
    except (EvalFileError, UnicodeDecodeError) as exc:
        raise UsageError(f"{journal}: {exc}") from None


def run_selected(
    plan: RunPlan,
    selected: Sequence[tuple[Path, EvalSet]],
    args: argparse.Namespace,
    *,
    keep: list[EvalReport] | None = None,
    published: list[Published] | None = None,
    done: Sequence[tuple[EvalSet, EvalReport]] = (),
) -> int:
    """Run the ``selected`` eval sets of ``plan`` in a child process (the workbench's worker,
    through :mod:`tenxeval_tui.runs.child_run`), then write the reports and print the
    summary; returns the exit code. The reports of the finished cases are added to
    ``keep`` (watch mode re-scores them when only the criteria change).

    Whatever the agent does (``sys.exit``, ``os._exit``, a crash, a signal, threads left
    running), the reports of the finished cases are written and the exit code is not 0
    unless every case ran and the threshold is met. The report written is added to
    ``published``. With ``--retry-errors N``, errored cases run again (each time in a new
    child) up to N times, each keeping its last result; ``done`` holds the eval sets of a
    resumed run with the report of the cases its journal had (merged into the report).
    """
    from tenxeval_tui.cli.retry_resume import case_ids, errored_only, merge_by_set, with_finished

    whole_plan = plan
    update: dict[str, object] = {"eval_sets": [path for path, _ in selected]}
    if plan.limit is not None or plan.sample is not None or done:
        # the cases picked (or left to resume) here, by id: the worker runs these
        only = {str(path): [case.eval_id for case in s.eval_cases] for path, s in selected}
        update.update(only=only, limit=None, sample=None, seed=None)
    plan = plan.model_copy(update=update)
    config = plan.resolved_config()
    journal: Path | None = None
    finished: list[EvalReport] = []
    interrupted = died = False
    if selected:
        total = sum(len(s.eval_cases) for _, s in selected)
        interrupted, died, journal, finished = _run_pass(plan, total, args, config)
    retries = getattr(args, "retry_errors", None) or 0
    rerun: set[tuple[str, str]] = set()
    for attempt in range(1, retries + 1):
        again = {} if interrupted or died else errored_only(selected, finished)
        if not again:
            break
        rerun |= case_ids(selected, again)
        count = sum(len(ids) for ids in again.values())
        print(f"retrying {count} errored case(s) (retry {attempt} of {retries})", flush=True)
        interrupted, died, retry_journal, newer = _run_pass(
            plan.rerunning(again), count, args, config
        )
        _drop_journal(retry_journal)  # its results are merged into the reports below
        finished = merge_by_set(finished, newer, selected)
    if done:
        used = config.model_dump(mode="json")
        finished = [
            r.model_copy(update={"config_used": used}) for r in with_finished(done, finished)
        ]
    if not finished or not any(r.results for r in finished):
        _drop_journal(journal)
        return EXIT_INTERRUPTED if interrupted else EXIT_FAILED
    if keep is not None:
        keep.extend(finished)
    if plan.shard is not None:
        finished = [_shard_report(whole_plan, finished)]
    code = publish(finished, config, args, published=published, rerun=rerun)
    stopped = interrupted or died
    if code is not None and not stopped:
        _drop_journal(journal)
    elif journal is not None:
        print(f"the run's journal is kept: {journal}", file=sys.stderr)
        if stopped:  # what did not finish can run later, into one complete report
            from tenxeval_tui.runs.resume import resume_command

            print(f"resume it with: {resume_command(sys.argv[1:], journal)}", file=sys.stderr)
    if interrupted:
        return EXIT_INTERRUPTED
    if died:
        return EXIT_FAILED
    return EXIT_FAILED if code is None else code


def _shard_report(plan: RunPlan, reports: Sequence[EvalReport]) -> EvalReport:
    """The one report of a ``--shard`` run: which part it is, each case's place in the whole."""
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.runs.plan import load_eval_sets
    from tenxeval_tui.runs.shards import mark_shard, run_positions

    report = reports[0] if len(reports) == 1 else EvalReport.combine(list(reports))
    return mark_shard(report, plan, run_positions(plan, load_eval_sets(plan.eval_sets)))


def _run_pass(
    plan: RunPlan, total: int, args: argparse.Namespace, config: EvalConfig
) -> tuple[bool, bool, Path | None, list[EvalReport]]:
    """One run of ``plan`` in a child, with its progress: ``(interrupted, died, journal,
    reports)``; what ended it early is said on stderr."""
    from tenxeval_tui.cli.logs import configure_logging, log_level, write_stderr_line
    from tenxeval_tui.cli.progress import make_progress
    from tenxeval_tui.runs.child_run import child_reports, run_in_child

    level = log_level(getattr(args, "log_level", None), args.verbose)
    configure_logging(level)
    progress = make_progress(total, quiet=args.quiet)
    with progress:
        outcome = run_in_child(
            plan, [progress], verbose=args.verbose, log_level=level, stderr=write_stderr_line
        )
    if outcome.worker_error is not None:
        raise UsageError(outcome.worker_error)
    for death in outcome.worker_deaths:
        print(inert(f"tenxeval-tui run: {death}"), file=sys.stderr)
    if outcome.interrupted:
        print("interrupted: writing the report of the finished cases", file=sys.stderr)
    elif outcome.died:
        print(
            f"tenxeval-tui run: the agent's process {outcome.how_it_ended()} before the run "
            "finished (os._exit, a crash or a kill): writing the report of the finished cases",
            file=sys.stderr,
        )
    reports = child_reports(outcome, config.model_dump(mode="json"))
    return outcome.interrupted, outcome.died, outcome.journal, reports


def publish(
    reports: Sequence[EvalReport],
    config: EvalConfig,
    args: argparse.Namespace,
    *,
    published: list[Published] | None = None,
    rerun: Collection[tuple[str, str]] = (),
) -> int | None:
    """Write ``reports`` as one report (combined when several) and print the summary; the
    exit code, or ``None`` when a report file was not written. The report and its files
    are added to ``published``; ``rerun`` holds the cases ``--retry-errors`` ran again
    (eval set id, eval id), counted in the summary."""
    from tenxeval_tui.evaluation.eval_result import EvalReport

    report = reports[0] if len(reports) == 1 else EvalReport.combine(list(reports))
    if not _write_reports(report, config, args, published, rerun):
        return None
    return args_exit_code(report, args)


def _drop_journal(journal: Path | None) -> None:
    """The journal of a run whose reports are written holds nothing more: remove it."""
    if journal is not None:
        journal.unlink(missing_ok=True)


def exit_code(report: EvalReport, threshold: float, *, error_code: int | None = None) -> int:
    """0 when the pass rate meets ``threshold``, no case errored and the run was not stopped
    (by ``max_cost``), else 1; ``error_code`` instead when given and a case errored."""
    from tenxeval_tui.evaluation.eval_result import STOPPED_KEY

    summary = report.summary
    if error_code is not None and summary.error_cases:
        return error_code
    ok = (
        summary.total_cases > 0
        and summary.pass_rate >= threshold
        and summary.error_cases == 0
        and not report.metadata.get(STOPPED_KEY)
    )
    return EXIT_OK if ok else EXIT_FAILED


def args_exit_code(report: EvalReport, args: argparse.Namespace) -> int:
    """:func:`exit_code` with the threshold and ``--error-exit-code`` of ``args``."""
    return exit_code(report, args.threshold, error_code=getattr(args, "error_exit_code", None))


def _write_reports(
    report: EvalReport,
    config: EvalConfig,
    args: argparse.Namespace,
    published: list[Published] | None = None,
    rerun: Collection[tuple[str, str]] = (),
) -> bool:
    """Write the report files (the ``-o`` ones too), then print; ``False`` when a report file
    was not written. The report and its files are added to ``published``. The summary line
    counts the cases that ran more than once (``rerun`` by ``--retry-errors``, or retried
    after a worker died), as the console report and the retry lines say."""
    from tenxeval_tui.cli.retry_resume import retried_count
    from tenxeval_tui.cli.run_options import Published, write_outputs
    from tenxeval_tui.evaluation.eval_result import NOT_RUN_KEY, STOPPED_KEY
    from tenxeval_tui.evaluation.reporters import print_report
    from tenxeval_tui.runs.reports import write_reports

    # Files first: a closed stdout (``| head``) must not cost the reports.
    written = write_reports([report], config.reporter, console=False)
    extra, failed = write_outputs(report, getattr(args, "outputs", None), config.reporter)
    written.files += extra
    written.errors += [(f"-o {path}", message) for path, message in failed]
    retried = retried_count(report, rerun)
    if published is not None:
        published.append(Published(report, list(written.files), retried))
    for name, message in written.errors:
        print(inert(f"report {name} failed: {message}", multiline=True), file=sys.stderr)
    if not args.quiet:
        print_report(report, verbose=args.verbose, use_color=colour_wanted(sys.stdout))
    if not args.quiet:
        for path in written.files:
            print(inert(f"wrote {path}"))
    s = report.summary
    verdict = "PASSED" if args_exit_code(report, args) == EXIT_OK else "FAILED"
    rates = ""
    if s.repeat_stats is not None:
        rs = s.repeat_stats
        rates = f", {rs.passed_repeats}/{rs.total_repeats} runs passed ({rs.repeat_pass_rate:.1%})"
    cost = f", cost ${s.total_cost_usd:.4f}" if s.total_cost_usd is not None else ""
    again = f", {retried} retried" if retried else ""
    print(
        f"{verdict}: {s.passed_cases}/{s.total_cases} passed, {s.failed_cases} failed, "
        f"{s.error_cases} errored{again}, pass rate {s.pass_rate:.1%} (threshold {args.threshold:.1%})"
        f"{rates}{cost}"
    )
    if report.metadata.get(STOPPED_KEY):
        not_run = len(report.metadata.get(NOT_RUN_KEY) or [])
        by = str(report.metadata[STOPPED_KEY])
        if by == "max_cost" and config.max_cost is not None:
            by = f"--max-cost ${config.max_cost:g}"
        print(
            inert(f"stopped by {by}: {not_run} case(s) not run; the report is partial"),
            file=sys.stderr,
        )
    if written.errors:
        print("FAILED: some report files were not written (see above)", file=sys.stderr)
    if args.open and written.html:
        import webbrowser

        webbrowser.open(Path(written.html[0]).resolve().as_uri())
    return not written.errors


def report_journal(
    plan: RunPlan, args: argparse.Namespace, *, published: list[Published] | None = None
) -> int:
    """``run --from-journal``: write the reports of the cases a journal recorded.

    Exit code as a run's, and 1 when the journal's run did not finish (partial).
    """
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.journal import read_journal_runs
    from tenxeval_tui.runs.reports import marked_partial

    journal = Path(args.from_journal)
    try:
        runs = read_journal_runs(journal)
    except FileNotFoundError:
        raise UsageError(f"{journal}: journal not found") from None
    except (EvalFileError, UnicodeDecodeError) as exc:
        raise UsageError(f"{journal}: {exc}") from None
    runs = [r for r in runs if r.results]
    if not runs:
        raise UsageError(f"{journal}: no finished case in this journal")
    report = runs[0] if len(runs) == 1 else EvalReport.combine(runs)
    if any(r.is_partial for r in runs):
        report = marked_partial(report)
    if not _write_reports(report, plan.resolved_config(), args, published):
        return EXIT_FAILED
    code = args_exit_code(report, args)
    return EXIT_FAILED if report.is_partial and code == EXIT_OK else code


__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "UsageError",
    "args_exit_code",
    "build_plan",
    "execute",
    "exit_code",
    "publish",
    "report_journal",
    "run_selected",
    "select_for_run",
]
