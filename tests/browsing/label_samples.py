"""Reports with a judged criterion, and human labels of their replies, for the review tests.

:func:`judged_report` builds a report whose ``factual_accuracy_v1`` verdicts the test
chooses case by case (the other criteria pass, so the case's verdict is the judge's);
:func:`human` labels a case's reply.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tenxeval_tui.browsing.labels import Label, Verdict, reply_sha256
from tenxeval_tui.evaluation import EvalReport, EvalSetBuilder
from tests.report_samples import CURRENT_TIME, case

JUDGED = "factual_accuracy_v1"
FIGURE_KEYS = ["n", "agreement", "kappa", "kappa_low", "kappa_high", "tpr", "tnr", "confusion"]
"""The keys of one criterion's figures in ``agreement --json``, in order (as issue #32
names them)."""
REPORT_NAME = "weather-agent_20260520_142301.json"


def reply_of(eval_id: str) -> str:
    """The reply case ``eval_id`` gave."""
    return f"The weather in {eval_id} is sunny."


def judged_report(
    judge_passes: Sequence[bool], *, errored: Sequence[int] = (), eval_set_id: str = "weather-agent"
) -> EvalReport:
    """Cases ``c00``, ``c01``... whose judged criterion passed as ``judge_passes`` says."""
    results = []
    for i, passed in enumerate(judge_passes):
        eval_id = f"c{i:02d}"
        results.append(
            case(
                eval_id,
                response=reply_of(eval_id),
                expected_response=reply_of(eval_id),
                judge=0.9 if passed else 0.2,
                reason="Accurate." if passed else f"Claims about {eval_id} do not hold.",
                error="the agent timed out" if i in errored else None,
            )
        )
    report = EvalReport.create(eval_set_id, results, eval_set_name="Weather agent")
    report.timestamp = CURRENT_TIME
    return report


def write_report(folder: Path, report: EvalReport, name: str = REPORT_NAME) -> Path:
    """``report`` as ``folder/name``."""
    path = folder / name
    report.to_file(path)
    return path


def write_eval_set(folder: Path, count: int, eval_set_id: str = "weather-agent") -> Path:
    """The eval set the cases came from (``weather.evalset.json``)."""
    builder = EvalSetBuilder(eval_set_id)
    for i in range(count):
        eval_id = f"c{i:02d}"
        builder.add_case(f"Weather in {eval_id}?", reply_of(eval_id), case_id=eval_id)
    eval_set = builder.build()
    eval_set.eval_set_id = eval_set_id  # the builder makes up a UUID
    path = folder / "weather.evalset.json"
    eval_set.to_file(path)
    return path


def human(
    eval_id: str,
    verdict: Verdict,
    *,
    criterion: str | None = JUDGED,
    reviewer: str = "alice",
    reply: str | None = None,
    time: str = "2026-05-20T15:00:00Z",
    note: str | None = None,
) -> Label:
    """``reviewer``'s label of case ``eval_id``'s reply (its own unless ``reply``)."""
    return Label(
        eval_id=eval_id,
        criterion=criterion,
        label=verdict,
        reviewer=reviewer,
        report=REPORT_NAME,
        reply_sha256=reply_sha256(reply if reply is not None else reply_of(eval_id)),
        note=note,
        time=time,
    )
