"""Several variants followed live, side by side, for the workbench (no UI import).

The run view's variants screen starts one worker per variant at once
(:class:`~tenxeval_tui.runs.worker_process.WorkerProcess`, each into its own
:class:`~tenxeval_tui.runs.live_run.LiveRun`), as ``run --agent A --agent B`` does in
the CLI (:mod:`tenxeval_tui.runs.variant_session`); :class:`VariantRuns` holds them:
the rows of the side-by-side table (a case, and its mark in each variant's column) and,
once every variant is done, the matrix of their reports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tenxeval_tui.evaluation.analysis.matrix import VariantMatrix, build_matrix
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.variant_spec import Variant, VariantError, parse_variants
from tenxeval_tui.runs.child_run import journal_path
from tenxeval_tui.runs.live_run import CaseStatus, LiveRun
from tenxeval_tui.runs.matrix_report import write_matrix
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.variant_session import variant_folder, variant_plan
from tenxeval_tui.settings.workspace import Workspace

MARKS = {
    CaseStatus.QUEUED: "·",
    CaseStatus.RUNNING: "running",
    CaseStatus.PASSED: "pass",
    CaseStatus.FAILED: "FAIL",
    CaseStatus.ERROR: "ERROR",
    CaseStatus.CARRIED: "carried",
    CaseStatus.CANCELLED: "stopped",
}


def workspace_variants(workspace: Workspace) -> list[Variant]:
    """The ``[tool.tenxeval] variants``, named (the settings' agent the default);
    :class:`VariantError` when two share a name."""
    entries = [v.model_dump(exclude_defaults=True) for v in workspace.settings.variants]
    where = f"{workspace.settings_file}: tool.tenxeval.variants"
    return parse_variants(entries, where, workspace.settings.agent)


@dataclass
class VariantRow:
    """One case in the side-by-side table: its key, label and each variant's mark."""

    key: str
    label: str
    marks: dict[str, str]


@dataclass
class VariantRuns:
    """Each chosen variant's plan and live run, in order."""

    plans: dict[str, RunPlan]
    runs: dict[str, LiveRun]
    output_dir: Path
    matrix: VariantMatrix | None = None
    matrix_files: list[str] = field(default_factory=list)
    reports: dict[str, EvalReport] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        base: RunPlan,
        variants: Sequence[Variant],
        output_dir: Path,
        new_run: Callable[[], LiveRun],
    ) -> VariantRuns:
        """A plan (its report folder and journal its own) and a fresh live run per variant."""
        plans: dict[str, RunPlan] = {}
        for variant in variants:
            plan = variant_plan(base, variant, output_dir)
            folder = variant_folder(output_dir, variant)
            plans[variant.name] = plan.model_copy(update={"journal": journal_path(folder)})
        return cls(plans, {name: new_run() for name in plans}, output_dir)

    @property
    def names(self) -> list[str]:
        """The variants, in the order chosen."""
        return list(self.plans)

    @property
    def done(self) -> bool:
        """Whether every variant's run ended."""
        return all(run.done for run in self.runs.values())

    def rows(self) -> list[VariantRow]:
        """Every case any variant knows of, in the order they first appear, with its mark
        in each variant (``-`` where a variant has not planned it yet)."""
        rows: dict[str, VariantRow] = {}
        for name, run in self.runs.items():
            for key, state in run.cases.items():
                row = rows.get(key)
                if row is None:
                    row = rows[key] = VariantRow(key, state.name or state.eval_id, {})
                row.marks[name] = _mark(state.status, state.result)
        for row in rows.values():
            for name in self.names:
                row.marks.setdefault(name, "-")
        return list(rows.values())

    def finish(self, stamp: str) -> VariantMatrix | None:
        """Once every variant is done: the matrix of the reports they wrote (``None``
        when none wrote one), written as ``OUTPUT_DIR/matrix-STAMP.json`` and ``.html``."""
        for name, run in self.runs.items():
            files = [Path(f) for f in run.report_files if f.endswith(".json")]
            if files:
                self.reports[name] = EvalReport.from_file(files[0])
        if not self.reports:
            return None
        self.matrix = build_matrix(self.reports)
        self.matrix_files = write_matrix(self.matrix, self.output_dir / f"matrix-{stamp}")
        return self.matrix


def _mark(status: CaseStatus, result: object) -> str:
    """A case's mark: its status, with its passed runs when it was repeated."""
    stats = getattr(result, "repeat_stats", None)
    if stats is not None and status in (CaseStatus.PASSED, CaseStatus.FAILED):
        return f"{MARKS[status]} {stats.passed_repeats}/{stats.repeats}"
    return MARKS.get(status, str(status))


__all__ = ["MARKS", "VariantError", "VariantRow", "VariantRuns", "workspace_variants"]
