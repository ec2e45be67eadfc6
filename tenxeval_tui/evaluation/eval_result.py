"""Results of an evaluation: per criterion, per case, summarised per run.

JSON files of reports use the keys of 10xGraph's reports (``eval_set_id``,
``eval_set_name``, ``summary.criterion_stats``, ``results[].criterion_results``
as a list, ``actual_response``, ``actual_tool_calls``...), so either tool reads
the other's reports.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_validator,
)

from tenxeval_tui.evaluation import _wiring
from tenxeval_tui.evaluation.canonical import sha256_json
from tenxeval_tui.evaluation.dataset.eval_set import ToolCall, TrajectoryStep
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.fileio import atomic_write_text, read_json_model
from tenxeval_tui.evaluation.lean import extra_on_demand
from tenxeval_tui.evaluation.redact import redact_values
from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY, combined_selection
from tenxeval_tui.evaluation.stats import (
    RepeatStats,
    RunRepeatStats,
    repeat_summary_lines,
    wilson_interval,
)
from tenxeval_tui.evaluation.summary_totals import SummaryTotals
from tenxeval_tui.evaluation.token_usage import TokenUsage

# EvalCaseResult.metadata key naming the eval set a case came from (combined reports).
EVAL_SET_ID_KEY = "eval_set_id"
# EvalReport.metadata key set on a report of a run that was cancelled before the end.
PARTIAL_KEY = "partial"
# EvalReport.metadata key of a rescored report: how it was rescored (see .rescore).
RESCORED_KEY = "rescored"
# EvalCaseResult.metadata key holding which repeat (0-based) a repeat's result is.
REPEAT_KEY = "repeat"
# EvalReport.metadata keys of a run that stopped itself (``"max_cost"``) and the ids of
# the cases it did not run.
STOPPED_KEY = "stopped_by"
# EvalCaseResult.metadata key of a case run a second time because the worker running it
# died (``--workers``, ``--backend ray``): how that worker died.
RETRIED_KEY = "retried"
NOT_RUN_KEY = "not_run"
# EvalReport.metadata key of where the run came from (see .provenance), the provenance's
# key of the eval set's content hash, and EvalCaseResult.metadata key of the case's.
PROVENANCE_KEY = "provenance"
EVAL_SET_HASH_KEY = "eval_set_sha256"
CASE_SHA256_KEY = "case_sha256"


def combined_provenance(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The provenance of a report combining runs of several eval sets (``parts``, each a
    run's ``metadata.provenance``, in order): a field all parts agree on is kept;
    ``git_dirty`` is whether any part was dirty; a hash the parts differ on becomes the
    hash of their list; ``judge_models`` and ``versions`` are merged; other fields they
    differ on are ``None``. Empty when no part has any."""
    parts = [p for p in parts if p]
    combined: dict[str, Any] = {}
    for key in dict.fromkeys(k for p in parts for k in p):
        values = [p.get(key) for p in parts]
        if key in ("judge_models", "versions"):
            combined[key] = {k: v for value in values for k, v in (value or {}).items()}
        elif key == "git_dirty":
            known = [v for v in values if v is not None]
            combined[key] = any(known) if known else None
        elif all(v == values[0] for v in values):
            combined[key] = values[0]
        else:
            combined[key] = sha256_json(values) if key.endswith("_sha256") else None
    return combined


# EvalReport.metadata key naming the variant (of a run of several) the report is of.
VARIANT_KEY = "variant"


def _unset(value: object) -> bool:
    """Fields only some runs fill (costs with a price table, repeats) are left out of
    reports (JSON included) when unset, so other reports keep the shape they always had."""
    return value is None


_NO_TOKENS = TokenUsage()
"""Shared by the results that used no tokens (it is frozen): one fewer model each."""


class CriterionResult(BaseModel):
    """The score of one criterion on one case.

    ``details`` holds what explains the score (for judged criteria the judge's
    ``reason``); ``error`` is set when the criterion itself failed to run, in
    which case ``passed`` is ``False``.
    """

    model_config = ConfigDict(extra="allow")

    criterion: str
    score: float
    passed: bool
    threshold: float = 0.0
    details: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    token_usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float | None = Field(default=None, exclude_if=_unset)
    """What this criterion's judge calls cost (only with a price table; see :mod:`.cost`)."""

    @field_validator("score")
    @classmethod
    def _finite(cls, score: float) -> float:
        # JSON has no NaN: a report holding one would be written as null and not load back.
        if not math.isfinite(score):
            raise ValueError(f"a score must be a finite number, not {score}")
        return score

    @property
    def reason(self) -> str | None:
        """The explanation in ``details`` (``reason`` or ``reasoning``), if any."""
        value = self.details.get("reason", self.details.get("reasoning"))
        return str(value) if value is not None else None

    @property
    def is_error(self) -> bool:
        """Whether the criterion raised instead of scoring."""
        return self.error is not None

    @classmethod
    def success(
        cls,
        criterion: str,
        score: float,
        threshold: float,
        details: dict[str, Any] | None = None,
        token_usage: TokenUsage | None = None,
    ) -> CriterionResult:
        """A scored result; ``passed`` is ``score >= threshold``."""
        return cls(
            criterion=criterion,
            score=score,
            passed=score >= threshold,
            threshold=threshold,
            details=details or {},
            token_usage=token_usage or _NO_TOKENS,
        )

    @classmethod
    def failure(
        cls,
        criterion: str,
        error: str,
        threshold: float = 0.0,
        details: dict[str, Any] | None = None,
    ) -> CriterionResult:
        """A criterion that could not score: score 0, not passed, with the error."""
        return cls(
            criterion=criterion,
            score=0.0,
            passed=False,
            threshold=threshold,
            error=error,
            details=details or {},
        )


class NodeDetail(BaseModel):
    """One node's input and output as kept in a report."""

    model_config = ConfigDict(extra="allow")
    __setattr__ = extra_on_demand  # instances are built lean (see evaluation/lean.py)

    node_name: str = ""
    input_messages: list[dict[str, Any]] = Field(default_factory=list)
    response_text: str = ""
    token_usage: TokenUsage = Field(default_factory=TokenUsage)
    timestamp: float = 0.0


class EvalCaseResult(BaseModel):
    """The outcome of one case.

    A case passes when it did not error and every criterion passed. ``error``
    is set when the agent raised or timed out; such a case never passes.
    ``token_usage`` counts the agent's and the judges' tokens;
    ``agent_token_usage`` the agent's alone.

    A case run several times (``repeats`` > 1, see :mod:`.repeats`) keeps every
    run in ``repeat_results`` (each an ``EvalCaseResult`` of its own, its index in
    ``metadata["repeat"]``) and its figures in ``repeat_stats``; its top level
    then holds the aggregate: ``passed`` by the pass rule, each criterion's mean
    score, summed tokens and durations, and the trajectory and reply of one
    representative repeat. Without repeats both fields are ``None`` and absent
    from the JSON.
    """

    model_config = ConfigDict(extra="allow")

    eval_id: str
    name: str = ""
    passed: bool
    criterion_results: list[CriterionResult] = Field(default_factory=list)
    actual_trajectory: list[TrajectoryStep] = Field(default_factory=list)
    actual_tool_calls: list[ToolCall] = Field(default_factory=list)
    actual_response: str = ""
    messages: list[dict[str, Any]] = Field(default_factory=list)
    node_responses: list[dict[str, Any]] = Field(default_factory=list)
    node_visits: list[str] = Field(default_factory=list)
    duration_seconds: float = 0.0
    error: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    turn_results: list[dict[str, Any]] = Field(default_factory=list)
    token_usage: TokenUsage = Field(default_factory=TokenUsage)
    agent_token_usage: TokenUsage = Field(default_factory=TokenUsage)
    node_details: list[NodeDetail] = Field(default_factory=list)
    cost_usd: float | None = Field(default=None, exclude_if=_unset)
    """What the case cost, agent and judges (only with a price table; see :mod:`.cost`)."""
    repeat_results: list[EvalCaseResult] | None = Field(default=None, exclude_if=_unset)
    repeat_stats: RepeatStats | None = Field(default=None, exclude_if=_unset)
    _pending_nodes: list[Any] | None = PrivateAttr(default=None)
    """The node responses whose ``node_responses`` and ``node_details`` views are not made
    yet (the run worker's results: see :mod:`~tenxeval_tui.evaluation.results.node_views`); ``None`` for every other."""

    @model_validator(mode="after")
    def _error_never_passes(self) -> EvalCaseResult:
        if self.error is not None and self.passed:
            self.passed = False
        return self

    @classmethod
    def success(
        cls,
        eval_id: str,
        criterion_results: list[CriterionResult],
        actual_trajectory: list[TrajectoryStep] | None = None,
        actual_tool_calls: list[ToolCall] | None = None,
        actual_response: str = "",
        messages: list[dict[str, Any]] | None = None,
        node_responses: list[dict[str, Any]] | None = None,
        node_visits: list[str] | None = None,
        duration_seconds: float = 0.0,
        name: str = "",
        metadata: dict[str, Any] | None = None,
        turn_results: list[dict[str, Any]] | None = None,
        token_usage: TokenUsage | None = None,
        agent_token_usage: TokenUsage | None = None,
        node_details: list[NodeDetail] | None = None,
    ) -> EvalCaseResult:
        """The result of a case that ran; it passed when every criterion passed."""
        return cls(
            eval_id=eval_id,
            name=name,
            passed=all(cr.passed for cr in criterion_results),
            criterion_results=criterion_results,
            actual_trajectory=actual_trajectory or [],
            actual_tool_calls=actual_tool_calls or [],
            actual_response=actual_response,
            messages=messages or [],
            node_responses=node_responses or [],
            node_visits=node_visits or [],
            duration_seconds=duration_seconds,
            metadata=metadata or {},
            turn_results=turn_results or [],
            token_usage=token_usage or TokenUsage(),
            agent_token_usage=agent_token_usage or TokenUsage(),
            node_details=node_details or [],
        )

    @classmethod
    def failure(
        cls, eval_id: str, error: str, name: str = "", duration_seconds: float = 0.0
    ) -> EvalCaseResult:
        """The result of a case that could not run (it errored): never passes."""
        return cls(
            eval_id=eval_id,
            name=name,
            passed=False,
            error=error,
            duration_seconds=duration_seconds,
        )

    @property
    def is_error(self) -> bool:
        """Whether the case errored (agent raised, timed out, or could not run)."""
        return self.error is not None

    @property
    def status(self) -> str:
        """``"passed"``, ``"failed"`` or ``"error"``."""
        if self.is_error:
            return "error"
        return "passed" if self.passed else "failed"

    @property
    def eval_set_id(self) -> str:
        """The eval set this case came from ("" when unknown)."""
        return str(self.metadata.get(EVAL_SET_ID_KEY, ""))

    @property
    def runs(self) -> list[EvalCaseResult]:
        """Every run of the case: its repeats, or the case itself when it ran once."""
        return self.repeat_results if self.repeat_results is not None else [self]

    @property
    def repeat_index(self) -> int:
        """Which repeat this result is (0-based; 0 for a case that ran once)."""
        value = self.metadata.get(REPEAT_KEY, 0)
        return value if isinstance(value, int) else 0

    @property
    def pass_rate(self) -> float:
        """Share of the case's runs that passed (1.0 or 0.0 when it ran once)."""
        if self.repeat_stats is not None:
            return self.repeat_stats.pass_rate
        return 1.0 if self.passed else 0.0

    def get_criterion_result(self, name: str) -> CriterionResult | None:
        """The result of the criterion called ``name``, or ``None``."""
        return next((cr for cr in self.criterion_results if cr.criterion == name), None)

    @property
    def failed_criteria(self) -> list[CriterionResult]:
        """Criterion results that did not pass."""
        return [cr for cr in self.criterion_results if not cr.passed]

    @property
    def passed_criteria(self) -> list[CriterionResult]:
        """Criterion results that passed."""
        return [cr for cr in self.criterion_results if cr.passed]


class EvalSummary(BaseModel):
    """Aggregate figures of a run.

    Invariant: ``total_cases == passed_cases + failed_cases + error_cases``; an
    errored case is counted in ``error_cases`` only.
    """

    model_config = ConfigDict(extra="allow", defer_build=True)  # built after the cases

    total_cases: int = 0
    passed_cases: int = 0
    failed_cases: int = 0
    error_cases: int = 0
    pass_rate: float = 0.0
    avg_duration_seconds: float = 0.0
    total_duration_seconds: float = 0.0
    criterion_stats: dict[str, dict[str, Any]] = Field(default_factory=dict)
    total_token_usage: TokenUsage = Field(default_factory=TokenUsage)
    per_case_token_usage: dict[str, TokenUsage] = Field(default_factory=dict)
    avg_tokens_per_case: float = 0.0
    total_cost_usd: float | None = Field(default=None, exclude_if=_unset)
    """What the run cost (only with a price table; see :mod:`.cost`)."""
    wall_seconds: float | None = Field(default=None, exclude_if=_unset)
    """How long the run took, first case start to last case end (the wall clock). Cases
    run side by side, so it is less than :attr:`total_duration_seconds`, the sum of the
    cases' own durations. Unknown (``None``) for a report rebuilt from a killed run."""
    repeat_stats: RunRepeatStats | None = Field(default=None, exclude_if=_unset)
    """Figures over every repeat; set only when some case ran more than once."""

    def pass_rate_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The Wilson interval ``(low, high)`` of :attr:`pass_rate` (cases as the trials)."""
        return wilson_interval(self.passed_cases, self.total_cases, confidence)

    @classmethod
    def from_results(cls, results: list[EvalCaseResult]) -> EvalSummary:
        """Compute the summary of ``results``."""
        return cls.from_result_stream(results)

    @classmethod
    def from_result_stream(cls, results: Iterable[EvalCaseResult]) -> EvalSummary:
        """:meth:`from_results` in one pass over ``results`` as they come (read from a file
        a case at a time, say), none of them kept: running totals
        (:class:`~tenxeval_tui.evaluation.summary_totals.SummaryTotals`)."""
        totals = SummaryTotals()
        for result in results:
            totals.add(result)
        return cls(**totals.fields())


def tagged_with_set(result: EvalCaseResult, eval_set_id: str) -> EvalCaseResult:
    """``result`` naming ``eval_set_id`` in its metadata, as a combined report's cases do
    (unchanged when it names one already)."""
    if EVAL_SET_ID_KEY in result.metadata:
        return result
    return result.model_copy(update={"metadata": {**result.metadata, EVAL_SET_ID_KEY: eval_set_id}})


def planned_cases(report: EvalReport, planned: int | None = None) -> int:
    """The cases ``report``'s run was to run: its results; for a run that stopped before
    its end, ``planned`` when known (the cases its journal's ``run_start`` listed), else its
    results and the ``not_run`` ids of a run ``max_cost`` stopped."""
    total = report.summary.total_cases
    if not report.is_partial:
        return total
    if planned is not None:
        return max(planned, total)
    return total + len(report.metadata.get(NOT_RUN_KEY) or [])


def combined_fields(
    reports: Sequence[EvalReport], planned: Sequence[int | None] | None = None
) -> dict[str, Any]:
    """What a report combining ``reports`` says besides its results (see
    :meth:`EvalReport.combine`): ``wall_seconds``, ``config_used`` and ``metadata`` (a run of
    some of the sets' cases keeps saying so: ``selection``, see
    :func:`~tenxeval_tui.evaluation.selection_marks.combined_selection`, a set stopped
    before its end counting the cases it was to run: :func:`planned_cases`, with
    ``planned``, each report's when known)."""
    partial = any(r.is_partial for r in reports)
    stopped = next((r.metadata[STOPPED_KEY] for r in reports if r.metadata.get(STOPPED_KEY)), None)
    not_run = [i for r in reports for i in r.metadata.get(NOT_RUN_KEY) or []]
    walls = [r.summary.wall_seconds for r in reports if r.summary.wall_seconds is not None]
    provenance = combined_provenance([r.metadata.get(PROVENANCE_KEY) or {} for r in reports])
    plans = planned if planned is not None else [None] * len(reports)
    selection = combined_selection(
        [(r.metadata, planned_cases(r, plan)) for r, plan in zip(reports, plans, strict=True)]
    )
    return {
        "wall_seconds": sum(walls) if walls else None,  # eval sets run one after the other
        "config_used": reports[0].config_used if reports else {},
        "metadata": {
            "eval_set_ids": [r.eval_set_id for r in reports],
            **({PARTIAL_KEY: True} if partial else {}),
            **({STOPPED_KEY: stopped, NOT_RUN_KEY: not_run} if stopped else {}),
            **({PROVENANCE_KEY: provenance} if provenance else {}),
            **({SELECTION_KEY: selection} if selection is not None else {}),
        },
    }


class EvalReport(BaseModel):
    """The report of one run over one eval set (or several, combined)."""

    model_config = ConfigDict(extra="allow", defer_build=True)  # built after the cases

    eval_set_id: str
    eval_set_name: str = ""
    results: list[EvalCaseResult] = Field(default_factory=list)
    summary: EvalSummary = Field(default_factory=EvalSummary)
    config_used: dict[str, Any] = Field(default_factory=dict)
    timestamp: float = Field(default_factory=time.time)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_serializer("results", mode="wrap")
    def _results_listed(  # type: ignore[no-untyped-def]
        self, results: Sequence[EvalCaseResult], handler: SerializerFunctionWrapHandler
    ):
        # Results read from a journal as they are needed (results/journal_results.py) are
        # a sequence, not a list: serialised as the list they stand for. No return type:
        # the field's own JSON schema stays the serialisation schema.
        return handler(results if isinstance(results, list) else list(results))

    @field_serializer("config_used")
    def _config_without_credentials(self, config_used: dict[str, Any]) -> dict[str, Any]:
        # Every report file, whatever writes it: a judge endpoint's userinfo and key-like
        # query parameters are hidden (see redact.py); the report in memory keeps them.
        hidden: dict[str, Any] = redact_values(config_used)
        return hidden

    @classmethod
    def create(
        cls,
        eval_set_id: str,
        results: list[EvalCaseResult],
        eval_set_name: str = "",
        config_used: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        wall_seconds: float | None = None,
    ) -> EvalReport:
        """A report over ``results`` with its summary computed from them (and the run's
        ``wall_seconds``, when known)."""
        summary = EvalSummary.from_results(list(results))
        summary.wall_seconds = wall_seconds
        return cls(
            eval_set_id=eval_set_id,
            eval_set_name=eval_set_name,
            results=list(results),
            summary=summary,
            config_used=config_used or {},
            metadata=metadata or {},
        )

    @classmethod
    def combine(
        cls,
        reports: list[EvalReport],
        eval_set_id: str = "combined_eval",
        eval_set_name: str = "Combined Evaluation",
    ) -> EvalReport:
        """Merge reports into one (each case keeps the id of its eval set in its metadata).

        The merged report is partial when any is, and stopped (``stopped_by``, with every
        ``not_run`` id) when any was; its provenance combines theirs
        (:func:`combined_provenance`)."""
        return combined_report(reports, eval_set_id=eval_set_id, eval_set_name=eval_set_name)

    @property
    def passed(self) -> bool:
        """Whether every case passed (and there was at least one)."""
        return (
            self.summary.total_cases > 0 and self.summary.passed_cases == self.summary.total_cases
        )

    @property
    def is_partial(self) -> bool:
        """Whether the run was cancelled before every case finished."""
        return bool(self.metadata.get(PARTIAL_KEY, False))

    @property
    def failed_cases(self) -> list[EvalCaseResult]:
        """Cases that did not pass (failed or errored)."""
        return [r for r in self.results if not r.passed]

    @property
    def passed_cases(self) -> list[EvalCaseResult]:
        """Cases that passed."""
        return [r for r in self.results if r.passed]

    def get_case_result(self, eval_id: str) -> EvalCaseResult | None:
        """The result of the case ``eval_id``, or ``None``."""
        return next((r for r in self.results if r.eval_id == eval_id), None)

    def to_json(self, indent: int | None = 2) -> str:
        """The report as JSON text."""
        return self.model_dump_json(indent=indent)

    def to_file(self, path: str | Path) -> None:
        """Write the report as JSON (atomically)."""
        atomic_write_text(Path(path), self.to_json() + "\n")

    @classmethod
    def from_file(cls, path: str | Path) -> EvalReport:
        """Load a JSON report (ours or 10xGraph's); errors name file, line, column and field.

        A JSON object without ``results`` (an eval set, a config) is no report.
        """
        report = read_json_model(cls, Path(path))
        if "results" not in report.model_fields_set:
            kind = (
                " (an eval set: it has eval_cases)"
                if "eval_cases" in (report.model_extra or {})
                else ""
            )
            raise EvalFileError(
                [
                    Problem(
                        path=str(path),
                        line=1,
                        column=1,
                        message=f"not a report: no 'results'{kind}",
                    )
                ]
            )
        return report

    def _repr_html_(self) -> str:
        """The HTML report, for Jupyter: the page :class:`HTMLReporter` writes, in an iframe.

        A notebook strips a page's ``<head>`` and runs no script it did not trust, so
        the page goes whole into a sandboxed ``srcdoc`` iframe (scripts allowed, no
        access to the notebook), keeping its styles and case list to itself.
        """
        import html

        page = _wiring.report_page(self)
        return (
            '<iframe class="tenxeval-report" sandbox="allow-scripts" '
            'style="width: 100%; height: 640px; border: 0" '
            f'title="evaluation report {html.escape(self.eval_set_id)}" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
        )

    def format_summary(self) -> str:
        """A plain-text overview: counts, pass rate, duration, tokens, criteria, failures."""
        s = self.summary
        title = self.eval_set_name or self.eval_set_id
        lines = [
            f"Evaluation report: {title}" + (" (partial)" if self.is_partial else ""),
            f"  Cases: {s.total_cases} total, {s.passed_cases} passed, "
            f"{s.failed_cases} failed, {s.error_cases} errored",
            f"  Pass rate: {s.pass_rate:.1%}",
            *(repeat_summary_lines(s.repeat_stats) if s.repeat_stats else []),
            f"  Duration: {s.total_duration_seconds:.2f}s total, "
            f"{s.avg_duration_seconds:.2f}s per case"
            + ("" if s.wall_seconds is None else f", {s.wall_seconds:.2f}s wall time"),
            f"  Tokens: {s.total_token_usage.total_tokens}",
        ]
        if s.total_cost_usd is not None:
            lines.append(f"  Cost: ${s.total_cost_usd:.4f}")
        stopped = self.metadata.get(STOPPED_KEY)
        if stopped:
            not_run = self.metadata.get(NOT_RUN_KEY) or []
            lines.append(f"  Stopped by {stopped}: {len(not_run)} case(s) not run")
        if s.criterion_stats:
            lines.append("  Criteria:")
            for name, st in s.criterion_stats.items():
                lines.append(
                    f"    {name}: avg {st['avg_score']:.2f}, "
                    f"{st['passed']}/{st['total']} passed ({st['pass_rate']:.0%})"
                )
        failed = self.failed_cases
        if failed:
            lines.append("  Failed cases:")
            for r in failed:
                label = r.name or r.eval_id
                if r.repeat_stats is not None:
                    rs = r.repeat_stats
                    label += f" ({rs.passed_repeats}/{rs.repeats} runs passed)"
                if r.is_error:
                    lines.append(f"    {label}: ERROR {r.error}")
                else:
                    crit = ", ".join(
                        f"{cr.criterion}={cr.score:.2f}<{cr.threshold:.2f}"
                        for cr in r.failed_criteria
                    )
                    lines.append(f"    {label}: {crit}")
        return "\n".join(lines)


def combined_report(
    reports: Sequence[EvalReport],
    planned: Sequence[int | None] | None = None,
    *,
    eval_set_id: str = "combined_eval",
    eval_set_name: str = "Combined Evaluation",
) -> EvalReport:
    """:meth:`EvalReport.combine` of ``reports``; ``planned``: the cases each one's run was
    to run, when known (a journal lists them; see :func:`combined_fields`)."""
    results = [
        tagged_with_set(result, report.eval_set_id)
        for report in reports
        for result in report.results
    ]
    return EvalReport.create(
        eval_set_id=eval_set_id,
        results=results,
        eval_set_name=eval_set_name,
        **combined_fields(reports, planned),
    )
