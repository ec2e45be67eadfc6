"""``tenxeval-tui run``'s flags and settings made into what a run session takes: a
:class:`~tenxeval_tui.runs.plan.RunPlan` (what to run) and
:class:`~tenxeval_tui.runs.session.SessionOptions` (how), by :func:`prepare_run`, once.

Settings come from ``[tool.tenxeval]`` (see :mod:`tenxeval_tui.settings.workspace`) and are
overridden by flags. Every problem is a :class:`UsageError` naming the file, the place and
the problem (exit code 2). The run itself is :class:`~tenxeval_tui.runs.session.RunSession`'s
(:mod:`tenxeval_tui.cli.run_command` hands it over and prints).

Only the standard library is imported at module level, so that ``--help``
stays fast; the engine, rich and the agent are imported when a run starts.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tenxeval_tui.cli.scenario_files import skip_unready_scenarios
from tenxeval_tui.cli.usage import UsageError
from tenxeval_tui.cli.variant_flags import VariantFlags, variants_for
from tenxeval_tui.evaluation.inert import inert

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig
    from tenxeval_tui.evaluation.dataset.selection import Shard
    from tenxeval_tui.evaluation.variant_spec import Variant
    from tenxeval_tui.runs.plan import RunPlan
    from tenxeval_tui.runs.reuse import ReuseMode
    from tenxeval_tui.runs.session import SessionOptions
    from tenxeval_tui.settings.layers import Resolved
    from tenxeval_tui.settings.workspace import Workspace

EXIT_USAGE = 2


def _split_tags(raw: Sequence[str] | None) -> list[str]:
    return [tag.strip() for item in raw or () for tag in item.split(",") if tag.strip()]


def _eval_files(paths: Sequence[str], workspace: Workspace) -> tuple[list[Path], set[Path]]:
    """The files to run, and those of them that are scenario files a folder scan found."""
    from tenxeval_tui.settings.workspace import RUN_FILE_SUFFIXES, is_scenario_path, run_files_in

    named = [Path(p) for p in paths] or [workspace.resolve(p) for p in workspace.settings.eval_sets]
    if not named:
        raise UsageError("no eval sets: name files or folders, or set eval_sets in [tool.tenxeval]")
    from tenxeval_tui.evaluation.files.textfiles import not_regular_reason

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

    if folder.is_symlink() and not folder.exists():  # mkdir would say "File exists"
        raise UsageError(
            f"{folder}: cannot write reports here: it is a symbolic link to "
            f"{os.readlink(folder)}, which does not exist"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(f"{folder}: cannot write reports here: {exc.strerror or exc}") from None


AgentTold = Callable[[str, Path], None]
"""Told the agent spec and the folder it is imported from (see :func:`prepare_run`)."""


def prepare_run(
    args: argparse.Namespace, tell_agent: AgentTold | None = None
) -> tuple[RunPlan, SessionOptions]:
    """Resolve flags and settings into the plan (its config resolved, its criteria checked)
    and the session's options; :class:`UsageError` on any problem. ``tell_agent`` is told
    the agent as soon as the settings are read, before the checks, when it is sure to run
    as it is (:func:`_agent_is_sure`): ``run``'s worker child imports it meanwhile."""
    reuse = reuse_mode(args)  # first: it may give a path back to the paths
    variant_flags = _variant_flags(args)
    args.agent = variant_flags.single_agent  # several --agent are variants, each its own
    workspace, sources = _settled(args)
    # No agent here is fine when every eval set names its own (checked once they load).
    agent = args.agent or ""
    agent_given = sources["agent"].layer in ("flag", "env") or variant_flags.several_agents
    _check_agent(agent)
    # A flag's module is imported from the current folder (as uvicorn does); the
    # settings' from the folder of the pyproject.toml that names it.
    agent_folder = Path.cwd() if agent_given else workspace.resolve(Path("."))
    if tell_agent is not None and agent_given and _agent_is_sure(args, workspace):
        tell_agent(agent, agent_folder)
    # Imported once the worker is told (pydantic and the eval set models): not before.
    from tenxeval_tui.cli.run_options import FlagError, tool_settings
    from tenxeval_tui.evaluation.dataset.selection import CaseSelection
    from tenxeval_tui.runs.plan import RunPlan

    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"{sources['threshold'].where}: {args.threshold} is not between 0 and 1")
    files, scanned = ([], set()) if args.from_journal else _eval_files(args.paths, workspace)
    config, config_file = _config(args, workspace, sources)
    subset = _checked_flags(args)
    try:
        tools = tool_settings(args.tools, args.cassette, files)
    except FlagError as exc:
        raise UsageError(str(exc)) from None
    tags = tuple(_split_tags(args.tags))
    if args.tags and not tags:
        raise UsageError("--tags: no tag given (use --tags NAME[,NAME...])")
    if args.any_tag and not tags:
        raise UsageError("--any-tag: no --tags given (use --tags NAME,NAME --any-tag)")
    shard = _shard(args.shard)
    workers, backend, address = _backend(args, sources, config)
    modules = _import_criteria_modules(args.criteria_modules, workspace, agent_folder)
    _check_criteria(config, config_file, args.preset)
    user_model = args.user_model or None
    files = skip_unready_scenarios(files, scanned, config, user_model)
    _check_output_dir(Path(config.reporter.output_dir))
    variants = variants_for(variant_flags, workspace, agent)
    options = _session_options(args, reuse, variants, variant_flags.baseline)
    plan = RunPlan(
        agent=agent,
        agent_explicit=agent_given,
        search_path=agent_folder,
        eval_sets=files,
        named_eval_sets=[p for p in map(Path, args.paths) if p in files],
        selection=CaseSelection(
            eval_ids=tuple(args.cases) if args.cases else None,
            tags=tags,
            every_tag=not args.any_tag,
        ),
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
    return plan, options


def _settled(args: argparse.Namespace) -> tuple[Workspace, dict[str, Resolved]]:
    """The workspace of the current folder, and ``args`` with every run flag not given
    filled from the settings' layers (where each value came from)."""
    from tenxeval_tui.cli.run_settings import apply_settings
    from tenxeval_tui.settings.layers import SettingsError
    from tenxeval_tui.settings.workspace import open_workspace

    workspace = open_workspace(Path.cwd())
    if workspace.problems:
        raise UsageError("\n".join(str(p) for p in workspace.problems))
    try:
        return workspace, apply_settings(args, workspace)
    except SettingsError as exc:
        raise UsageError(str(exc)) from None


def _agent_is_sure(args: argparse.Namespace, workspace: Workspace) -> bool:
    """Whether the run's agent, named explicitly, is sure to be imported as it is by one
    worker child: no criteria module to import before it, one worker (not Ray). A rough
    look at the settled flags (they are checked later): the plan says for sure
    (:meth:`~tenxeval_tui.runs.plan.RunPlan.told_spare`)."""
    if args.criteria_modules or workspace.settings.criteria_modules:
        return False
    return args.backend != "ray" and str(args.workers or 1).strip() == "1"


def _check_agent(agent: str) -> None:
    """``agent`` (when given) is a ``module:attribute`` spec."""
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

    try:
        if agent:
            parse_spec(agent)
    except AgentLoadError as exc:
        raise UsageError(str(exc)) from None


def _config(
    args: argparse.Namespace, workspace: Workspace, sources: Mapping[str, Resolved]
) -> tuple[EvalConfig, Path | None]:
    """The run's config (``--config``, ``--preset``, the settings' or the default) with the
    flags that change it applied, and its file."""
    from tenxeval_tui.cli.run_options import FlagError, with_run_flags

    config, config_file = _base_config(args, workspace)
    config = config.model_copy(deep=True)
    if args.concurrency is not None:
        if args.concurrency < 1:
            raise UsageError(f"{sources['concurrency'].where}: must be at least 1")
        # A concurrency set anywhere (flag, variable, project, settings file) asks for it;
        # with none, the config's `parallel` decides (False by default, as in 10xGraph).
        config.max_concurrency = args.concurrency
        config.parallel = True
    if args.timeout is not None:
        if not (args.timeout > 0 and math.isfinite(args.timeout)):
            # named where it was set: the flag, or the settings file and key
            raise UsageError(f"{sources['timeout'].where}: must be a number of seconds more than 0")
        config.timeout = args.timeout
    try:
        config = with_run_flags(config, args.repeat, args.pass_rule, args.max_cost)
    except FlagError as exc:
        raise UsageError(str(exc)) from None
    reporter = config.reporter
    if sources["output_dir"].layer != "default":
        reporter.output_dir = args.output_dir
    reporter.junit_xml = reporter.junit_xml or args.junit
    reporter.html = reporter.html and not args.no_html
    return config, config_file


def _variant_flags(args: argparse.Namespace) -> VariantFlags:
    """``run``'s flags that choose the variants or do not go with them."""
    return VariantFlags(
        agents=tuple(args.agents or ()),
        variants_file=args.variants,
        baseline=args.baseline,
        watch=args.watch,
        from_journal=args.from_journal,
        shard=args.shard,
        outputs=tuple(args.outputs or ()),
        resume=args.resume,
    )


def _checked_flags(args: argparse.Namespace) -> dict[str, int | None]:
    """The session's flags checked; ``--limit``/``--sample``/``--seed`` as plan fields."""
    from tenxeval_tui.cli.run_options import (
        FlagError,
        check_error_exit_code,
        check_outputs,
        subset_fields,
    )

    try:
        check_outputs(args.outputs)
        subset = subset_fields(args.limit, args.sample, args.seed)
        check_error_exit_code(args.error_exit_code)
    except FlagError as exc:
        raise UsageError(str(exc)) from None
    if args.json_summary and args.watch:
        raise UsageError("--json: not with --watch (a watched run never ends with one summary)")
    if args.retry_errors is not None and args.retry_errors < 0:
        raise UsageError(f"--retry-errors: must be 0 or more, not {args.retry_errors}")
    if args.resume and (args.watch or args.from_journal):
        raise UsageError("--resume: not with --watch or --from-journal")
    return subset


def _session_options(
    args: argparse.Namespace,
    reuse: ReuseMode | None,
    variants: tuple[Variant, ...],
    baseline: str | None,
) -> SessionOptions:
    """The session's options: the checked flags, the variants (``baseline`` with them)."""
    from tenxeval_tui.cli.logs import log_level
    from tenxeval_tui.runs.session import SessionOptions

    return SessionOptions(
        threshold=args.threshold,
        error_exit_code=args.error_exit_code,
        retry_errors=args.retry_errors or 0,
        resume=Path(args.resume) if args.resume else None,
        reuse=reuse,
        from_journal=Path(args.from_journal) if args.from_journal else None,
        outputs=tuple(args.outputs or ()),
        verbose=args.verbose,
        log_level=log_level(args.log_level, args.verbose),
        variants=variants,
        baseline=(baseline or None) if variants else None,
    )


def reuse_mode(args: argparse.Namespace) -> ReuseMode | None:
    """``--reuse`` (``all``) or ``--reuse passed``, checked. ``--reuse`` takes an optional
    value, so in ``run --reuse evals/`` argparse took the path for it: put back among the
    paths."""
    value = args.reuse
    if value is None:
        return None
    if value not in ("all", "passed"):
        if value.startswith("-") or not Path(value).exists():
            raise UsageError(f"--reuse: {value!r} is neither 'passed' nor an eval set path")
        args.paths = [value, *args.paths]
        value = "all"
    if args.watch or args.from_journal:
        raise UsageError("--reuse: not with --watch or --from-journal")
    mode: ReuseMode = "passed" if value == "passed" else "all"
    args.reuse = mode
    return mode


def _backend(
    args: argparse.Namespace, sources: Mapping[str, Resolved], config: EvalConfig
) -> tuple[int | None, Literal["process", "ray"], str | None]:
    """``--workers``, ``--backend`` and ``--address`` (``workers`` and ``backend`` filled
    from the settings' layers when no flag says), checked; :class:`UsageError` on a bad
    value, naming where it was set."""
    from tenxeval_tui.runs.worker_count import resolve_workers

    try:
        workers = resolve_workers(args.workers)
    except ValueError as exc:
        raise UsageError(f"{sources['workers'].where}: {exc}") from None
    backend: Literal["process", "ray"] = "ray" if args.backend == "ray" else "process"
    address = args.address
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


def _shard(raw: str | None) -> Shard | None:
    """``--shard K/N`` as a shard; :class:`UsageError` when it is not one."""
    if raw is None:
        return None
    from tenxeval_tui.evaluation.dataset.selection import Shard

    try:
        return Shard.parse(raw)
    except ValueError as exc:
        raise UsageError(f"--shard: {exc}") from None


def _import_criteria_modules(
    flagged: Sequence[str] | None, workspace: Workspace, agent_folder: Path
) -> list[str]:
    """Import ``--criteria-module``s (from the current folder), or else the settings'
    ``criteria_modules`` (from the pyproject's folder); returns them."""
    from tenxeval_tui.runs.criteria_modules import CriteriaModuleError, import_criteria_modules

    modules = list(flagged or ()) or list(workspace.settings.criteria_modules)
    source = "--criteria-module" if flagged else f"{workspace.settings_file}: tool.tenxeval"
    try:
        import_criteria_modules(modules, agent_folder)
    except CriteriaModuleError as exc:
        raise UsageError(f"{source}: {exc}") from None
    return modules


__all__ = ["EXIT_USAGE", "AgentTold", "UsageError", "prepare_run"]
