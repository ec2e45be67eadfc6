"""Resuming a stopped run: what is left to run, the complete reports after, and the command
that does it (no UI).

A run cancelled, killed or stopped keeps its journal (every finished case); ``tenxeval-tui
run ... --resume JOURNAL`` runs the rest and writes one complete report, and so does the
run view's "run the rest" (``u``): both take their :class:`ResumePoint` from
:func:`resume_point`. Both front ends show the command: ``run`` prints it, the run view
shows it under a stopped run.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.results.journal import read_journal
from tenxeval_tui.evaluation.subsets import merge_results
from tenxeval_tui.runs.config_match import config_difference
from tenxeval_tui.runs.passes import Selected, resume_split, with_finished
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.problems import RunProblem, journal_problems
from tenxeval_tui.runs.shown_paths import shown_path

PROGRAM = "tenxeval-tui"


@dataclass
class ResumePoint:
    """Where a stopped run resumes: the eval sets with the cases left to run, and each
    selected set its journals have results of, with the report of those."""

    todo: list[tuple[Path, EvalSet]]
    done: list[tuple[EvalSet, EvalReport]]

    @property
    def finished(self) -> int:
        """Cases the journals finished (of those selected)."""
        return sum(len(report.results) for _, report in self.done)

    @property
    def left(self) -> int:
        """Cases left to run."""
        return sum(len(eval_set.eval_cases) for _, eval_set in self.todo)

    def plan(self, plan: RunPlan) -> RunPlan:
        """``plan`` running exactly the cases left, by id."""
        return plan.narrowed_to(self.todo, by_id=True)

    def reports(self, newer: Sequence[EvalReport], config_used: dict[str, Any]) -> list[EvalReport]:
        """The complete reports: each journal report with the ``newer`` results of its set
        (partial while a case of the set has no result), then the other newer reports;
        each saying it was scored with ``config_used``."""
        merged = with_finished(self.done, newer)
        return [r.model_copy(update={"config_used": config_used}) for r in merged]


RESUME_MAY_DIFFER = frozenset({"max_cost", "timeout"})
"""Config fields a resumed run may change besides how it runs (more budget, more time)."""


def resume_point(
    selected: Selected, journals: Sequence[Path], config_used: dict[str, Any] | None = None
) -> ResumePoint:
    """What of ``selected`` the ``journals`` (oldest first: a later result of a case wins)
    finished, and what is left; :class:`RunProblem` when a journal cannot be read, or when
    its cases were scored with another config than ``config_used`` (the config the rest
    runs with, as JSON): one report never mixes two scorings. A journal that does not say
    its config (written before it did) is taken as it is."""
    done: dict[str, EvalReport] = {}
    for journal in journals:
        with journal_problems(journal):
            recorded = read_journal(journal)
        for set_id, report in recorded.items():
            _check_config(journal, report, config_used)
            done[set_id] = merge_results(done[set_id], report) if set_id in done else report
    todo, finished = resume_split(selected, done)
    return ResumePoint(todo, finished)


def _check_config(journal: Path, report: EvalReport, config_used: dict[str, Any] | None) -> None:
    if not config_used or not report.config_used:
        return
    difference = config_difference(report.config_used, config_used, RESUME_MAY_DIFFER)
    if difference is not None:
        raise RunProblem(
            f"{journal}: its cases were scored with another config than this run's "
            f"({difference}): resume with the config it ran with, or run every case again "
            "without resuming (one report never mixes two scorings)"
        )


def resume_argv(argv: Sequence[str], journal: Path) -> list[str]:
    """``run``'s arguments ``argv`` (without the program) made to resume from ``journal``:
    any earlier ``--resume`` dropped, ``--resume JOURNAL`` added."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--resume":
            skip = True
            continue
        if arg.startswith("--resume="):
            continue
        kept.append(arg)
    return [*kept, "--resume", str(journal)]


def resume_command(argv: Sequence[str], journal: Path) -> str:
    """The shell command that resumes the run ``argv`` started (see :func:`resume_argv`)."""
    return shlex.join([PROGRAM, *resume_argv(argv, journal)])


def plan_resume_command(plan: RunPlan, cwd: Path | None = None) -> str | None:
    """The ``run`` command that resumes ``plan`` from its journal (``None`` without one):
    its eval set files, agent, tags (``--any-tag`` when one of them is enough, as in the
    run view's filter) and cases by id, relative to ``cwd`` when inside it."""
    if plan.journal is None:
        return None

    argv: list[str] = ["run", *(shown_path(path, cwd) for path in plan.eval_sets)]
    if plan.agent:
        argv += ["--agent", plan.agent]
    chosen = (plan.selection_for(path).eval_ids for path in plan.eval_sets)  # filter and rerun
    ids = sorted({eval_id for ids in chosen for eval_id in ids or ()})
    for eval_id in ids:
        argv += ["--case", eval_id]
    if plan.selection.tags:
        argv += ["--tags", ",".join(plan.selection.tags)]
        if not plan.selection.every_tag and len(plan.selection.tags) > 1:
            argv.append("--any-tag")  # the run view's #tags: one of them is enough
    if plan.output_dir is not None:
        argv += ["--output-dir", shown_path(plan.output_dir, cwd)]
    return resume_command(argv, Path(shown_path(plan.journal, cwd)))


__all__ = [
    "PROGRAM",
    "RESUME_MAY_DIFFER",
    "ResumePoint",
    "plan_resume_command",
    "resume_argv",
    "resume_command",
    "resume_point",
]
