"""Several variants of the agent in one run, side by side (no UI import).

``tenxeval-tui run --agent A --agent B`` (or ``--variants FILE``, or ``[tool.tenxeval]
variants``) builds one plan and the variants (:mod:`tenxeval_tui.evaluation.variant_spec`);
:class:`VariantSession` runs one :class:`~tenxeval_tui.runs.session.RunSession` per variant,
**all at once**, each in its own worker child: their cases are interleaved in time, so a
slow hour of an API slows every variant alike instead of the one that ran then. Each
variant is a whole session, so everything a run does applies to it on its own:
concurrency, workers, Ray, repeats, ``--retry-errors``, ``--max-cost`` (one budget per
variant), its journal and ``--resume``.

Where things go, under the run's output folder ``OUT``:

- ``OUT/<variant>/``: the variant's report (its ``metadata.variant`` names it) and, while
  the run is not done, its journal;
- ``OUT/matrix-<time>.json`` and ``.html``: the matrix report
  (:mod:`tenxeval_tui.evaluation.analysis.matrix`) tying them together.

A run stopped before its end keeps every variant's journal; ``--resume OUT`` resumes each
variant from the newest journal in its folder ``OUT/<variant>/`` (a variant that had
finished runs nothing; one with no journal there runs from the start).

The exit code (:func:`variants_exit_code`): 130 when interrupted; else with a baseline, 1
when a variant's run failed to report or another variant is significantly worse than the
baseline (the matrix's pairwise test), else 0; without one, as a single run per variant:
0 only when every variant's report passes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from tenxeval_tui.evaluation.analysis.matrix import VariantMatrix, build_matrix
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.variant_spec import Variant, folder_name
from tenxeval_tui.runs.child_run import JOURNAL_GLOB
from tenxeval_tui.runs.display import RunDisplay
from tenxeval_tui.runs.matrix_report import write_matrix
from tenxeval_tui.runs.outcome import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, RunOutcome
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.problems import RunProblem
from tenxeval_tui.runs.session import RunSession, SessionOptions


@dataclass
class VariantOutcome:
    """What a variant run did: each variant's outcome (in the variants' order), the matrix
    of those that reported, its files, and the exit code."""

    exit_code: int
    outcomes: dict[str, RunOutcome] = field(default_factory=dict)
    matrix: VariantMatrix | None = None
    files: list[str] = field(default_factory=list)
    baseline: str | None = None
    worse: list[str] = field(default_factory=list)
    """The variants significantly worse than the baseline."""
    interrupted: bool = False
    journals: list[Path] = field(default_factory=list)
    """The journals kept (the run stopped before its end)."""


def variant_folder(output_dir: Path, variant: Variant) -> Path:
    """Where ``variant``'s report and journal go."""
    return output_dir / folder_name(variant.name)


def variant_plan(plan: RunPlan, variant: Variant, output_dir: Path) -> RunPlan:
    """``plan`` run as ``variant``: its agent (when it names one), params, state, its
    pricing model, and its own report folder."""
    config = plan.resolved_config()
    config.reporter.output_dir = str(variant_folder(output_dir, variant))
    if variant.agent_model is not None:
        config.agent_model = variant.agent_model
    update: dict[str, object] = {
        "config": config,
        "agent_params": dict(variant.params),
        "state": dict(variant.state),
        "output_dir": None,
        "variant": variant.name,
    }
    if variant.agent:
        update.update(agent=variant.agent, agent_explicit=True)
    return plan.model_copy(update=update)


def newest_journal(folder: Path) -> Path | None:
    """The newest run journal in ``folder`` (``None``: none)."""
    journals = sorted(folder.glob(JOURNAL_GLOB), key=lambda p: p.stat().st_mtime)
    return journals[-1] if journals else None


def variants_exit_code(outcome: VariantOutcome, baseline: str | None) -> int:
    """The run's exit code (see the module)."""
    if outcome.interrupted:
        return EXIT_INTERRUPTED
    codes = [o.exit_code for o in outcome.outcomes.values()]
    if baseline is None:
        return next((code for code in codes if code != EXIT_OK), EXIT_OK)
    if any(o.published is None for o in outcome.outcomes.values()) or outcome.worse:
        return EXIT_FAILED
    return EXIT_OK


class VariantSession:
    """Every variant of ``variants`` run on ``plan``'s cases at once (see the module).

    ``displays`` makes each variant's :class:`RunDisplay` (called from that variant's
    thread); ``baseline`` names the variant the others are judged against."""

    def __init__(
        self,
        plan: RunPlan,
        options: SessionOptions,
        variants: Sequence[Variant],
        displays: Callable[[Variant], RunDisplay],
        baseline: str | None = None,
    ) -> None:
        names = [v.name for v in variants]
        if baseline is not None and baseline not in names:
            raise RunProblem(
                f"--baseline {baseline!r}: no such variant (the variants: {', '.join(names)})"
            )
        self.plan = plan
        self.options = options
        self.variants = list(variants)
        self.displays = displays
        self.baseline = baseline
        self.output_dir = Path(plan.resolved_config().reporter.output_dir)
        self.stop = threading.Event()
        """Set it to stop every variant's run (as Ctrl-C stops one)."""

    def sessions(self) -> list[RunSession]:
        """One session per variant, in order."""
        resume = self.options.resume
        made = []
        for variant in self.variants:
            journal = None
            if resume is not None:  # the folder of a variant run: each its own journal
                journal = newest_journal(variant_folder(resume, variant))
            options = replace(self.options, variant=variant.name, keep_journal=True, resume=journal)
            plan = variant_plan(self.plan, variant, self.output_dir)
            made.append(RunSession(plan, options, self.displays(variant), stop=self.stop))
        return made

    def run(self) -> VariantOutcome:
        """Every variant at once, then the matrix; :class:`RunProblem` (naming the variant)
        when one cannot start."""
        self.output_dir.mkdir(parents=True, exist_ok=True)
        sessions = self.sessions()
        interrupted = False
        with ThreadPoolExecutor(len(sessions), thread_name_prefix="variant") as pool:
            futures = [pool.submit(session.run) for session in sessions]
            while True:
                try:
                    for future in futures:
                        future.exception()  # waits; Ctrl-C reaches this thread only
                    break
                except KeyboardInterrupt:
                    interrupted = True
                    self.stop.set()
        outcome = VariantOutcome(EXIT_OK, baseline=self.baseline)
        problems = []
        for variant, future in zip(self.variants, futures, strict=True):
            error = future.exception()
            if isinstance(error, RunProblem):
                problems.append(f"variant {variant.name}: {error}")
            elif error is not None:
                raise error
            else:
                outcome.outcomes[variant.name] = future.result()
        if problems:
            raise RunProblem("\n".join(problems))
        outcome.interrupted = interrupted or any(
            o.exit_code == EXIT_INTERRUPTED for o in outcome.outcomes.values()
        )
        self._finish(outcome)
        return outcome

    def _finish(self, outcome: VariantOutcome) -> None:
        """The matrix written, the journals dropped (or kept when the run stopped), the
        exit code."""
        reports = {name: o.published.report for name, o in outcome.outcomes.items() if o.published}
        if reports:
            outcome.matrix = build_matrix(reports)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            stem = (self.output_dir / f"matrix-{stamp}").resolve()
            outcome.files = write_matrix(outcome.matrix, stem)
            if self.baseline is not None and self.baseline in reports:
                outcome.worse = outcome.matrix.worse_than(self.baseline)
        journals = [o.journal for o in outcome.outcomes.values() if o.journal is not None]
        stopped = outcome.interrupted or any(
            o.published is None or o.published.incomplete is not None
            for o in outcome.outcomes.values()
        )
        if stopped:
            outcome.journals = journals
        else:
            for journal in journals:
                journal.unlink(missing_ok=True)
        outcome.exit_code = variants_exit_code(outcome, self.baseline)


def variant_reports(outcome: VariantOutcome) -> dict[str, EvalReport]:
    """Each variant's report, by name (those that wrote one)."""
    return {n: o.published.report for n, o in outcome.outcomes.items() if o.published}


__all__ = [
    "VariantOutcome",
    "VariantSession",
    "newest_journal",
    "variant_folder",
    "variant_plan",
    "variant_reports",
    "variants_exit_code",
]
