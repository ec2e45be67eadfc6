"""The run plan: what one evaluation runs, built by every front end, run by the worker.

``tenxeval-tui run`` (:mod:`tenxeval_tui.cli.headless`, run by :mod:`tenxeval_tui.runs.session`), the workbench's run view and
watch mode (CLI and TUI) each build a :class:`RunPlan`; it is serialised to JSON for the
worker child (:mod:`tenxeval_tui.runs.worker`), which loads the eval sets, selects the
cases (:func:`selected_eval_sets`), loads the agents and runs them. The case selection
is the core's :class:`~tenxeval_tui.evaluation.dataset.selection.CaseSelection`, so
``--tags``/``--case``, the run view's filter, reruns and the pytest helpers choose cases
the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.selection import CaseSelection, SelectableCase, Shard
from tenxeval_tui.evaluation.tools.settings import ToolSettings
from tenxeval_tui.runs.spare_worker import told, worker_environment

# Imported where used: the parent builds a plan and hands it to its worker child without
# them (issue #38: their imports delayed the hand-over).
if TYPE_CHECKING:
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.tools.run import ToolRun


class RunPlan(BaseModel):
    """What to run: the eval sets and the cases selected in them, the agent, the config,
    where reports and the journal go."""

    agent: str = Field(description="The agent, as module:attribute.")
    agent_explicit: bool = Field(
        default=False, description="The agent wins over the eval sets' own (metadata.agent)."
    )
    agent_params: dict[str, Any] = Field(
        default_factory=dict,
        description="Keyword arguments of the agent's factory (a variant's params).",
    )
    state: dict[str, Any] = Field(
        default_factory=dict,
        description="Merged into every case's session_input.state (a variant's state).",
    )
    variant: str | None = Field(
        default=None, description="The variant this run is of (its reports' metadata.variant)."
    )
    eval_sets: list[Path]
    named_eval_sets: list[Path] = Field(
        default_factory=list,
        description="Those of eval_sets the user named by file, not found in a folder: one "
        "with no agent stops the run before any case (a folder's is left out, the rest run).",
    )
    selection: CaseSelection = Field(
        default_factory=CaseSelection, description="The cases to run of every eval set."
    )
    only: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Eval set path -> the eval ids to run from it, within the selection "
        "(sets not listed: all the selection chooses). Reruns of some cases use it.",
    )
    chosen_by: str | None = Field(
        default=None,
        description="How the front end chose the cases of a run over some of them "
        "(rerun_failed, run_again, watch): its reports' metadata.selection says so "
        "(see runs.selection_report; None: as the selection, limit or sample say).",
    )
    limit: int | None = Field(
        default=None, ge=1, description="Run only the first N cases the selection chooses."
    )
    sample: int | None = Field(
        default=None, ge=1, description="Run N of the cases the selection chooses, drawn with seed."
    )
    seed: int | None = Field(default=None, description="The seed of sample.")
    shard: Shard | None = Field(
        default=None,
        description="Run only this stable part of what the selection, limit and sample chose.",
    )
    concurrency: int | None = Field(default=None, ge=1)
    repeats: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Runs of each case (the config's repeats); a case's or an eval set's own "
        "metadata.repeats still wins. None: the config's.",
    )
    workers: int | None = Field(
        default=None,
        ge=1,
        description="Worker processes (or Ray actors) the cases are handed out to, the "
        "concurrency split between them (None or 1: one evaluator in the worker).",
    )
    backend: Literal["process", "ray"] = Field(
        default="process", description="Where the workers run: local processes, or Ray."
    )
    ray_address: str | None = Field(
        default=None, description="The Ray cluster to join (None: start a local one)."
    )
    preset: str | None = None
    config_file: Path | None = Field(
        default=None, description="The eval config file (read unless config is given; watched)."
    )
    output_dir: Path | None = None
    journal: Path | None = None
    journal_started: list[str] = Field(
        default_factory=list,
        description="Eval set ids the journal already started: it is continued (their "
        "cases appended), not started over (a run carried on in a new worker).",
    )
    search_path: Path | None = Field(default=None, description="Put on sys.path first.")
    tools: ToolSettings = Field(
        default_factory=ToolSettings,
        description="The agents' tools: live, record, replay or replay-or-record, and the "
        "cassette (default: NAME.tools.jsonl beside each eval set).",
    )
    config: EvalConfig | None = Field(
        default=None,
        description="The config, resolved (the CLI's): wins over config_file, preset, "
        "concurrency and output_dir.",
    )
    criteria_modules: list[str] = Field(
        default_factory=list,
        description="Imported (search_path first) before the criteria are built.",
    )
    user_model: str | None = Field(
        default=None,
        description="The simulated user's model of scenario files (wins over the files' and "
        "the config's).",
    )
    verbose: bool | None = Field(
        default=None,
        description="Logging: None leaves it as it is, False keeps only critical records, "
        "True shows INFO records on stderr.",
    )
    log_level: str | None = Field(
        default=None,
        description="Logging from this level up (debug, info, warning, error, critical) on "
        "stderr, whatever ``verbose`` says; None: as ``verbose`` says.",
    )

    events: Literal["all", "judging"] = Field(
        default="all",
        description="The agent's event lines the worker writes: all of them (the live "
        "views), or only those saying a case is being scored (``run``, which shows cases, "
        "not steps; its deadline watch reads those).",
    )
    case_end: Literal["lean", "brief"] = Field(
        default="lean",
        description="What the worker's case_end lines hold of a result: all but its bulky "
        "lists (the live views, a custom display), or only its ids, verdict, time, error "
        "and criteria's scores (``run``'s progress: runs/brief_results.py).",
    )

    report_metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Added to every report's metadata (the workbench marks a watch "
        "session's reruns: see evaluation.watch_marks).",
    )
    html: bool = Field(
        default=True, description="Write the HTML report too (a watch rerun writes JSON only)."
    )

    def with_report_marks(self, report: EvalReport) -> EvalReport:
        """``report`` with :attr:`report_metadata` added to its metadata."""
        if not self.report_metadata:
            return report
        metadata = {**report.metadata, **self.report_metadata}
        return report.model_copy(update={"metadata": metadata})

    def command(self) -> list[str]:
        """The command line that runs this plan in a worker child process."""
        return [sys.executable, "-m", "tenxeval_tui.runs.worker", self.model_dump_json()]

    def worker_env(self) -> dict[str, str]:
        """The worker's environment: this one, unbuffered, ``search_path`` first on the path,
        this process named as its parent (see :mod:`~tenxeval_tui.runs.parent_watch`)."""
        return worker_environment(self.search_path)

    def told_spare(self) -> dict[str, Any] | None:
        """What a spare worker is told of this plan's agent before the plan comes
        (:mod:`~tenxeval_tui.runs.spare_worker`); ``None`` when it is told nothing: the
        agent not named explicitly (an eval set may name its own), criteria modules to
        import first, or the cases handed out to several workers."""
        if not (self.agent and self.agent_explicit and self.search_path is not None):
            return None
        if self.criteria_modules or self.pooled:
            return None
        return told(self.agent, self.search_path, self.verbose, self.log_level)

    def resolved_config(self) -> EvalConfig:
        """The plan's resolved config; or the config file (or the default), with the
        preset's criteria, the concurrency, the repeats and the output dir."""
        from tenxeval_tui.evaluation.config.presets import preset_by_name

        if self.config is not None:
            return self.config.model_copy(deep=True)
        config = EvalConfig.from_file(self.config_file) if self.config_file else EvalConfig()
        if self.preset:
            config.criteria = preset_by_name(self.preset).criteria
        elif not self.config_file:
            config = EvalConfig.default()
        if self.concurrency is not None:
            config.max_concurrency = self.concurrency
            config.parallel = True
        if self.repeats is not None:
            config.repeats = self.repeats
        if self.output_dir is not None:
            config.reporter.output_dir = str(self.output_dir)
        if not self.html:
            config.reporter.html = False
        return config

    @property
    def pooled(self) -> bool:
        """Whether the cases are handed out to several workers (or to Ray) instead of run
        by one evaluator."""
        return self.backend == "ray" or (self.workers or 1) > 1

    def selection_for(self, path: Path) -> CaseSelection:
        """The selection of the eval set in ``path``: the plan's, narrowed by ``only``."""
        return self.selection.narrowed(self.only.get(str(path)))

    def narrowed_to(self, selected: Sequence[tuple[Path, EvalSet]], *, by_id: bool) -> RunPlan:
        """This plan on the ``selected`` eval sets only (as :func:`select` gave them);
        ``by_id``: exactly their cases, by id (a ``limit``/``sample`` pick, or what is left
        to resume), so the worker runs these and picks nothing itself."""
        update: dict[str, object] = {"eval_sets": [path for path, _ in selected]}
        if by_id:
            only = {str(path): [case.eval_id for case in s.eval_cases] for path, s in selected}
            update.update(only=only, limit=None, sample=None, seed=None)
        return self.model_copy(update=update)

    def rerunning(self, only: dict[Path, list[str]], chosen_by: str | None = None) -> RunPlan:
        """This plan run again on some cases only: ``only`` maps each eval set file to run
        to its eval ids (within the selection); ``chosen_by``: why (its reports'
        ``metadata.selection``; ``None``: the plan's)."""
        update: dict[str, object] = {
            "eval_sets": list(only),
            "only": {str(path): list(ids) for path, ids in only.items()},
        }
        if chosen_by is not None:
            update["chosen_by"] = chosen_by
        return self.model_copy(update=update)


def load_eval_sets(paths: Sequence[Path]) -> list[tuple[Path, EvalSet]]:
    """Each file with its eval set, in order (a ``*.scenarios.json`` file as the eval set
    of its scenarios: one case each); raises what :meth:`EvalSet.from_file` raises
    (``FileNotFoundError``, :class:`~tenxeval_tui.evaluation.errors.EvalFileError`). A
    case without an ``eval_id`` is named by its place in the file (:mod:`.stable_ids`)."""
    from tenxeval_tui.runs.stable_ids import load_with_stable_ids

    return [(path, load_with_stable_ids(path)) for path in paths]


def unfound_choice(plan: RunPlan, loaded: Sequence[tuple[Path, EvalSet]]) -> str | None:
    """Why ``plan`` cannot run as chosen when the cases it names by id in a file
    (``only``: a ``--limit``/``--sample`` pick, what is left to resume or retry) are none
    of them in the file as ``loaded``; ``None`` when each file holds some of them."""
    for path, eval_set in loaded:
        wanted = plan.only.get(str(path))
        if not wanted:
            continue
        held = {case.eval_id for case in eval_set.eval_cases}
        if not held.intersection(wanted):
            return (
                f"{path}: none of the {len(wanted)} case(s) chosen for this run (by id, "
                f"first {wanted[0]!r}) is in the file: was it changed since they were chosen?"
            )
    return None


def select[S: EvalSet](plan: RunPlan, loaded: Sequence[tuple[Path, S]]) -> list[tuple[Path, S]]:
    """Each loaded eval set holding only the cases ``plan`` selects in it (maybe none):
    :func:`chosen_cases`, then its ``shard``'s part of them (:func:`shard_part`)."""
    return shard_part(plan, chosen_cases(plan, loaded))


def chosen_cases[S: EvalSet](
    plan: RunPlan, loaded: Sequence[tuple[Path, S]]
) -> list[tuple[Path, S]]:
    """Each loaded eval set holding only the cases ``plan`` chooses in it, before a
    ``--shard`` split (what its report's ``metadata.selection`` counts).

    The plan's ``limit`` or ``sample`` then picks among the cases of every set together,
    in file order (:func:`~tenxeval_tui.evaluation.subsets.pick_cases`).
    """
    chosen = [
        (path, eval_set, _selected(plan.selection_for(path), eval_set.eval_cases))
        for path, eval_set in loaded
    ]
    if plan.limit is not None or plan.sample is not None:
        from tenxeval_tui.evaluation.subsets import pick_cases

        chosen = [(p, s, list(cases)) for p, s, cases in chosen]  # picked by identity
        everything = [case for _, _, cases in chosen for case in cases]
        kept = {
            id(case)
            for case in pick_cases(everything, limit=plan.limit, sample=plan.sample, seed=plan.seed)
        }
        chosen = [(p, s, [c for c in cases if id(c) in kept]) for p, s, cases in chosen]
    return [
        (path, eval_set.model_copy(update={"eval_cases": cases}))
        for path, eval_set, cases in chosen
    ]


def shard_part[S: EvalSet](plan: RunPlan, chosen: Sequence[tuple[Path, S]]) -> list[tuple[Path, S]]:
    """The ``plan``'s ``shard`` part of the ``chosen`` cases (:func:`chosen_cases`), so the
    parts of one plan together run what it would; all of them without a shard."""
    shard = plan.shard
    if shard is None:
        return list(chosen)
    return [
        (
            path,
            eval_set.model_copy(
                update={"eval_cases": shard.cases(eval_set.eval_set_id, eval_set.eval_cases)}
            ),
        )
        for path, eval_set in chosen
    ]


def _selected[C: SelectableCase](selection: CaseSelection, cases: Sequence[C]) -> Sequence[C]:
    """The ``cases`` ``selection`` selects, in their order: a file's scanned cases
    themselves when it selects every one (:class:`ScannedCases`: a run of every case of a
    big file holds no second list of them), else a new list."""
    from tenxeval_tui.runs.case_scan import ScannedCases

    if isinstance(cases, ScannedCases) and not selection.filters:
        return cast(Sequence[C], cases)
    return selection.cases(cases)


def selected_eval_sets(plan: RunPlan) -> list[tuple[Path, EvalSet]]:
    """The plan's eval sets, loaded, with the cases it selects (their
    ``session_input.state`` with the plan's ``state`` merged in)."""
    chosen = select(plan, load_eval_sets(plan.eval_sets))
    if not plan.state:
        return chosen
    return [(path, with_state(eval_set, plan.state)) for path, eval_set in chosen]


def tool_run(
    plan: RunPlan, files_and_sets: Sequence[tuple[Path, EvalSet]], *, write: bool = True
) -> ToolRun:
    """The run's tools (its mode, each eval set's cassette and ``metadata.tools``);
    ``write``: this process writes the cassettes (a pooled worker's driver does, not the
    worker). Raises what :meth:`ToolRun.add_eval_set` raises for a bad file."""
    from tenxeval_tui.evaluation.tools.run import ToolRun

    tools = ToolRun(plan.tools, write=write)
    for path, eval_set in files_and_sets:
        tools.add_eval_set(eval_set, path)
    return tools


def with_state(eval_set: EvalSet, state: dict[str, Any]) -> EvalSet:
    """``eval_set`` with ``state`` merged into every case's ``session_input.state`` (its
    keys winning over the case's)."""
    cases = []
    for case in eval_set.eval_cases:
        session = case.session_input.model_copy(
            update={"state": {**case.session_input.state, **state}}
        )
        cases.append(case.model_copy(update={"session_input": session}))
    return eval_set.model_copy(update={"eval_cases": cases})


__all__ = [
    "RunPlan",
    "chosen_cases",
    "load_eval_sets",
    "select",
    "selected_eval_sets",
    "shard_part",
    "tool_run",
    "with_state",
]
