"""The command that resumes a stopped run: run again only what its journal lacks (no UI).

A run cancelled, killed or stopped keeps its journal (every finished case); ``tenxeval-tui
run ... --resume JOURNAL`` runs the rest and writes one complete report. Both front ends
show the command: ``run`` prints it, the run view shows it under a stopped run.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from tenxeval_tui.runs.plan import RunPlan

PROGRAM = "tenxeval-tui"


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
    its eval set files, agent, tags and cases by id, relative to ``cwd`` when inside it."""
    if plan.journal is None:
        return None

    def shown(path: Path) -> str:
        if cwd is not None and path.is_relative_to(cwd):
            return str(path.relative_to(cwd))
        return str(path)

    argv: list[str] = ["run", *(shown(path) for path in plan.eval_sets)]
    if plan.agent:
        argv += ["--agent", plan.agent]
    ids = sorted({eval_id for ids in plan.only.values() for eval_id in ids})
    for eval_id in ids:
        argv += ["--case", eval_id]
    if plan.selection.tags:
        argv += ["--tags", ",".join(plan.selection.tags)]
    if plan.output_dir is not None:
        argv += ["--output-dir", shown(plan.output_dir)]
    return resume_command(argv, Path(shown(plan.journal)))


__all__ = ["PROGRAM", "plan_resume_command", "resume_argv", "resume_command"]
