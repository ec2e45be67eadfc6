"""``run --reuse``: which selected cases can take their result from an earlier report instead
of running (no UI import).

A case's result is reused when the **newest** earlier result of the same case (same eval
set id and eval id) in the output folder's reports has the same fingerprint
(:func:`~tenxeval_tui.evaluation.provenance.case_fingerprint`: the case's content, the
agent's code hash, the config hash and the judge models, from that report's
``metadata.provenance`` and the result's ``metadata.case_sha256``) as the case has now,
and that result is usable:

- it did not error (an error says the case could not run, not how it does: it runs
  again), and none of its repeats did;
- it holds every run the case is to make now (``repeats``: all of them or none);
- with ``--reuse passed``, it passed.

Only the newest result of a fingerprint counts: an older pass never stands in for a newer
failure of the same code. Nothing is reused when the agent's code could not be hashed
(its result could come from any code) or when the run records or replays tool calls (the
cassette is not part of a result's provenance yet). A reused result says where it came
from in its ``metadata.reused_from`` (the report's file name); the report counts them in
``metadata.reused_cases``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import (
    CASE_SHA256_KEY,
    PROVENANCE_KEY,
    RETRIED_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.provenance import case_fingerprint, case_sha256, result_fingerprint
from tenxeval_tui.evaluation.repeats import RepeatsError, resolve_repeats
from tenxeval_tui.runs.passes import CaseId, Selected, merge_by_set
from tenxeval_tui.runs.reused_counts import (
    REUSED_CASES_KEY,
    REUSED_FROM_KEY,
    reused_count,
    with_reused_count,
)

logger = logging.getLogger("tenxeval_tui.runs.reuse")

ReuseMode = Literal["all", "passed"]
"""``--reuse`` (``all``: passed or failed results) or ``--reuse passed``."""
NO_EARLIER = "no earlier result"
CASE_CHANGED = "the case changed"
RUN_CHANGED = "the agent's code, the config or the judges changed"
ERRORED = "its last result errored"
FAILED = "its last result failed (--reuse passed)"
RUNS_DIFFER = "its last result has another number of runs"


@dataclass(frozen=True)
class EarlierResult:
    """One case's result in an earlier report, with the fingerprint it was made with."""

    report_file: Path
    result: EvalCaseResult
    case_sha256: str
    fingerprint: str | None


@dataclass
class ReuseSplit:
    """The selected cases split in two: those to run (``todo``) and the results reused for
    the others (``reused``, one report per eval set); ``why_not``: why each case of
    ``todo`` runs, by case."""

    selected: list[tuple[Path, EvalSet]]
    todo: list[tuple[Path, EvalSet]]
    reused: list[EvalReport] = field(default_factory=list)
    why_not: dict[CaseId, str] = field(default_factory=dict)

    @property
    def count(self) -> int:
        """How many cases are reused."""
        return sum(len(report.results) for report in self.reused)

    def reasons(self) -> dict[str, int]:
        """How many cases run for each reason, the most frequent first."""
        counts: dict[str, int] = {}
        for reason in self.why_not.values():
            counts[reason] = counts.get(reason, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def reports(self, finished: Sequence[EvalReport]) -> list[EvalReport]:
        """``finished`` (what ran) with the reused results put in, each eval set's results
        in file order, the eval sets in the order selected."""
        merged = merge_by_set(finished, self.reused, self.selected)
        order = {eval_set.eval_set_id: i for i, (_, eval_set) in enumerate(self.selected)}
        return sorted(merged, key=lambda r: order.get(r.eval_set_id, len(order)))


def is_report_candidate(path: Path) -> bool:
    """Whether ``path`` may be a JSON report (not an eval set, scenario file or hidden)."""
    name = path.name
    return (
        name.endswith(".json")
        and not name.endswith((".evalset.json", ".scenarios.json"))
        and not name.startswith(".")
        and path.is_file()
    )


def earlier_reports(folder: Path) -> list[tuple[Path, EvalReport]]:
    """The reports in ``folder`` (not recursive), newest first (by their timestamp); files
    that are not reports or do not load are left out (logged)."""
    if not folder.is_dir():
        return []
    found: list[tuple[Path, EvalReport]] = []
    for path in folder.iterdir():
        if not is_report_candidate(path):
            continue
        try:
            found.append((path, EvalReport.from_file(path)))
        except (EvalFileError, OSError, ValueError) as exc:
            logger.info("--reuse: %s is left out: %s", path, exc)
    return sorted(found, key=lambda item: (item[1].timestamp, item[0].name), reverse=True)


def earlier_results(
    reports: Sequence[tuple[Path, EvalReport]],
) -> dict[CaseId, EarlierResult]:
    """The newest result of each case in ``reports`` (newest first) that records its
    case's hash, by (eval set id, eval id)."""
    newest: dict[CaseId, EarlierResult] = {}
    for path, report in reports:
        provenance: Mapping[str, Any] = report.metadata.get(PROVENANCE_KEY) or {}
        for result in report.results:
            case = (result.eval_set_id or report.eval_set_id, result.eval_id)
            sha = result.metadata.get(CASE_SHA256_KEY)
            if case in newest or not isinstance(sha, str):
                continue
            fingerprint = result_fingerprint(provenance, sha) if provenance else None
            newest[case] = EarlierResult(path, result, sha, fingerprint)
    return newest


def reuse_split(
    selected: Selected,
    provenances: Mapping[str, Mapping[str, Any]],
    earlier: Mapping[CaseId, EarlierResult],
    config: EvalConfig,
    mode: ReuseMode = "all",
) -> ReuseSplit:
    """Which of ``selected`` take their result from ``earlier`` (see the module), given
    this run's ``provenances`` (by eval set id, as the worker makes them) and ``config``."""
    split = ReuseSplit(selected=list(selected), todo=[])
    for path, eval_set in selected:
        provenance = provenances.get(eval_set.eval_set_id) or {}
        reused: list[EvalCaseResult] = []
        rest: list[EvalCase] = []
        for case in eval_set.eval_cases:
            found = earlier.get((eval_set.eval_set_id, case.eval_id))
            why = _why_not(case, eval_set, found, provenance, config, mode)
            if why is None and found is not None:
                reused.append(_marked(found))
            else:
                rest.append(case)
                split.why_not[(eval_set.eval_set_id, case.eval_id)] = why or NO_EARLIER
        if rest:
            split.todo.append((path, eval_set.model_copy(update={"eval_cases": rest})))
        if reused:
            split.reused.append(
                EvalReport.create(
                    eval_set_id=eval_set.eval_set_id,
                    results=reused,
                    eval_set_name=eval_set.name,
                    config_used=config.model_dump(mode="json"),
                    metadata={PROVENANCE_KEY: dict(provenance)} if provenance else {},
                )
            )
    return split


def _why_not(
    case: EvalCase,
    eval_set: EvalSet,
    found: EarlierResult | None,
    provenance: Mapping[str, Any],
    config: EvalConfig,
    mode: ReuseMode,
) -> str | None:
    """Why ``case`` cannot take ``found`` (its newest earlier result); ``None``: it can."""
    if found is None:
        return NO_EARLIER
    sha = case_sha256(case)
    if found.case_sha256 != sha:
        return CASE_CHANGED
    config_hash = provenance.get("config_sha256")
    now = (
        case_fingerprint(
            sha, provenance.get("agent_sha256"), config_hash, provenance.get("judge_models") or {}
        )
        if isinstance(config_hash, str)
        else None
    )
    if now is None or found.fingerprint != now:
        return RUN_CHANGED
    result = found.result
    if any(run.is_error for run in [result, *result.runs]):
        return ERRORED
    if mode == "passed" and not result.passed:
        return FAILED
    try:
        wanted = resolve_repeats(config, eval_set, case)
    except RepeatsError:
        return RUNS_DIFFER  # the run tells the bad value when the case runs
    if len(result.runs) != wanted:
        return RUNS_DIFFER
    return None


def _marked(found: EarlierResult) -> EvalCaseResult:
    """The earlier result as this run's: naming the report it came from, not retried."""
    metadata = {k: v for k, v in found.result.metadata.items() if k != RETRIED_KEY}
    metadata[REUSED_FROM_KEY] = found.report_file.name
    return found.result.model_copy(update={"metadata": metadata})


def why_reused_none(agent_hashes: Sequence[Any], tools_mode: str) -> str | None:
    """Why nothing of a run may be reused, whatever the earlier reports hold (``None``: it
    may): the agent's code of a set is not known, or tool calls are recorded or replayed."""
    if tools_mode != "live":
        return f"not with --tools {tools_mode} (the cassette is not part of a case's fingerprint)"
    if any(not isinstance(h, str) for h in agent_hashes):
        return "the agent's code could not be hashed"
    return None


__all__ = [
    "REUSED_CASES_KEY",
    "REUSED_FROM_KEY",
    "EarlierResult",
    "ReuseMode",
    "ReuseSplit",
    "earlier_reports",
    "earlier_results",
    "is_report_candidate",
    "reuse_split",
    "reused_count",
    "why_reused_none",
    "with_reused_count",
]
