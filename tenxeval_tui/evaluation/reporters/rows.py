"""A report as flat rows, one per case and criterion, for spreadsheets and data tools.

:func:`report_rows` feeds :class:`~.csv.CsvReporter` and :class:`~.jsonl.JsonlReporter`:
both write the same rows with the same columns, CSV as text and JSON Lines with JSON's
own types (numbers, booleans, ``null``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions, to_text

CASE_COLUMNS = (
    "eval_set_id",
    "eval_id",
    "name",
    "status",
    "duration_seconds",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "case_error",
)
CRITERION_COLUMNS = (
    "criterion",
    "score",
    "threshold",
    "passed",
    "criterion_error",
    "criterion_tokens",
)
REASON_COLUMN = "reason"
RESPONSE_COLUMN = "actual_response"
COST_COLUMNS = ("case_cost_usd", "criterion_cost_usd")
REPEAT_COLUMNS = ("repeats", "passed_repeats", "case_pass_rate")


def row_columns(
    options: ViewOptions, *, with_cost: bool = False, with_repeats: bool = False
) -> list[str]:
    """The columns of every row, in order, for the given ``include_*`` switches.

    ``reason`` (the judge's or criterion's explanation) only with ``include_details``;
    ``actual_response`` only with ``include_actual_response``; the two cost columns only
    when the report has costs (a price table was configured); the case's ``repeats``,
    ``passed_repeats`` and ``case_pass_rate`` only when some case ran more than once
    (a case that ran once then has 1 and its 1 or 0).
    """
    columns = [*CASE_COLUMNS, *CRITERION_COLUMNS]
    if with_repeats:
        columns[len(CASE_COLUMNS) : len(CASE_COLUMNS)] = REPEAT_COLUMNS
    if options.include_details:
        columns.append(REASON_COLUMN)
    if options.include_actual_response:
        columns.append(RESPONSE_COLUMN)
    if with_cost:
        columns.extend(COST_COLUMNS)
    return columns


def has_repeats(report: EvalReport) -> bool:
    """Whether some case of the report ran more than once."""
    return report.summary.repeat_stats is not None


def has_costs(report: EvalReport) -> bool:
    """Whether the report carries costs (computed from a price table)."""
    return report.summary.total_cost_usd is not None


def report_rows(report: EvalReport, options: ViewOptions) -> Iterator[dict[str, Any]]:
    """One row per case and criterion, in report order, with :func:`row_columns` keys.

    A case that scored no criterion (it errored before scoring) still gets one row,
    its criterion columns empty (``None``), so every case appears.
    """
    with_cost = has_costs(report)
    with_repeats = has_repeats(report)
    for result in report.results:
        case = _case_fields(result, report, options, with_cost)
        if with_repeats:
            stats = result.repeat_stats
            case["repeats"] = stats.repeats if stats else 1
            case["passed_repeats"] = stats.passed_repeats if stats else int(result.passed)
            case["case_pass_rate"] = result.pass_rate
        if not result.criterion_results:
            yield {**case, **_no_criterion(options, with_cost)}
            continue
        for cr in result.criterion_results:
            yield {**case, **_criterion_fields(cr, options, with_cost)}


def _case_fields(
    result: EvalCaseResult, report: EvalReport, options: ViewOptions, with_cost: bool
) -> dict[str, Any]:
    tokens = result.token_usage
    row: dict[str, Any] = {
        "eval_set_id": result.eval_set_id or report.eval_set_id,
        "eval_id": result.eval_id,
        "name": result.name,
        "status": result.status,
        "duration_seconds": round(result.duration_seconds, 3),
        "input_tokens": tokens.input_tokens,
        "output_tokens": tokens.output_tokens,
        "total_tokens": tokens.total_tokens,
        "case_error": result.error,
    }
    if options.include_actual_response:
        row[RESPONSE_COLUMN] = result.actual_response
    if with_cost:
        row["case_cost_usd"] = result.cost_usd
    return row


def _criterion_fields(cr: CriterionResult, options: ViewOptions, with_cost: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "criterion": cr.criterion,
        "score": cr.score,
        "threshold": cr.threshold,
        "passed": cr.passed,
        "criterion_error": cr.error,
        "criterion_tokens": cr.token_usage.total_tokens,
    }
    if options.include_details:
        reason = cr.reason
        row[REASON_COLUMN] = to_text(reason) if reason is not None else None
    if with_cost:
        row["criterion_cost_usd"] = cr.cost_usd
    return row


def _no_criterion(options: ViewOptions, with_cost: bool) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(CRITERION_COLUMNS)
    if options.include_details:
        row[REASON_COLUMN] = None
    if with_cost:
        row["criterion_cost_usd"] = None
    return row
