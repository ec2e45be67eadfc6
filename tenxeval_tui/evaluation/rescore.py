"""Re-scoring a report without running the agent again.

:func:`rescore_report` recomputes every criterion of ``config`` from what the
report stored of each run: tool calls with their arguments, the trajectory,
node visits and node responses, messages, the reply (and, per turn, the turns'
user messages and expected replies). Nothing calls the agent. A case with
repeats is rescored repeat by repeat and aggregated again by ``config.pass_rule``.

What was *expected* comes from the eval set when it is given (``eval_sets``,
matched by eval set id and ``eval_id``), else from the report itself
(:func:`expectations_from_result`): each turn's user message and expected reply
(``turn_results``), the expected tool calls and node order the criteria wrote in
their ``details``, and the case's tags. A report holds no case ``metadata``
(``context``, ``reference_facts``) nor expectations of criteria that did not
run, so give the eval set when the new config adds such criteria.

A run that errored has nothing to score and is kept as it was. Judged criteria
go through the judge cache as in a run: their ``details`` say how many judge
calls they made (``judge_calls``) and how many replies came from the cache
(``cache_hits``); the totals are in the new report's ``metadata["rescored"]``,
with the expectations' source and the original report's timestamp. The new
report's ``config_used`` is ``config``: which config scored it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from tenxeval_tui.evaluation.agent_evaluator import score_criteria
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.cost import price_case
from tenxeval_tui.evaluation.criteria import BaseCriterion, build_criteria
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet, Invocation, MessageContent
from tenxeval_tui.evaluation.dataset.eval_set import ToolCall as ExpectedCall
from tenxeval_tui.evaluation.dataset.trajectory_rules import RULES_KEY
from tenxeval_tui.evaluation.eval_result import (
    PROVENANCE_KEY,
    RESCORED_KEY,
    CriterionResult,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.execution.result import ExecutionResult, NodeResponseData
from tenxeval_tui.evaluation.files.fileio import built_long_lived
from tenxeval_tui.evaluation.provenance.hashing import config_sha256, judge_models
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tenxeval_tui.evaluation.results.verdicts import no_verdict_error
from tenxeval_tui.evaluation.token_usage import TokenUsage


def execution_from_result(run: EvalCaseResult) -> ExecutionResult:
    """What the agent did in ``run``, as criteria receive it (``actual``).

    Built without validating again what the result already holds as models.
    """
    return ExecutionResult.model_construct(
        tool_calls=run.actual_tool_calls,
        trajectory=run.actual_trajectory,
        messages=run.messages,
        actual_response=run.actual_response,
        node_responses=[NodeResponseData.model_validate(n) for n in run.node_responses],
        node_visits=run.node_visits,
        duration_seconds=run.duration_seconds,
    )


def _detail(run: EvalCaseResult, key: str) -> Any:
    return next(
        (cr.details[key] for cr in run.criterion_results if cr.details.get(key) is not None),
        None,
    )


def _message(role: str, text: Any) -> MessageContent:
    return MessageContent(role=role, content=str(text or ""))


def expectations_from_result(run: EvalCaseResult) -> EvalCase:
    """The case as far as ``run`` recorded it: turns with their user message and expected
    reply, expected tool calls and node order (from criterion details, on the first turn:
    criteria compare them over the whole conversation), tags, and its trajectory rules
    (``metadata["trajectory_rules"]``, kept by the trajectory criterion's details; put in
    unvalidated: rules a report holds that cannot be read fail the criterion that reads
    them, not the rescoring)."""
    turns = [
        Invocation(
            invocation_id=f"{run.eval_id}-{index}",  # a fixed id: no uuid per turn
            user_content=_message("user", turn.get("user_content", turn.get("user_input"))),
            expected_final_response=(
                _message("assistant", turn["expected_response"])
                if turn.get("expected_response") is not None
                else None
            ),
        )
        for index, turn in enumerate(run.turn_results)
    ] or [Invocation(user_content=MessageContent.user(""))]
    if not any(t.expected_final_response for t in turns):
        expected = _detail(run, "expected_response")
        if isinstance(expected, str):
            turns[-1].expected_final_response = MessageContent.assistant(expected)
    calls = _detail(run, "expected_trajectory")
    if isinstance(calls, list):
        turns[0].expected_tool_trajectory = [ExpectedCall.model_validate(c) for c in calls]
    else:
        names = _detail(run, "expected_names")
        if isinstance(names, list):
            turns[0].expected_tool_trajectory = [ExpectedCall(name=str(n)) for n in names]
    nodes = _detail(run, "expected_node_order")
    if isinstance(nodes, list):
        turns[0].expected_node_order = [str(n) for n in nodes]
    tags = run.metadata.get("tags")
    case = EvalCase(
        eval_id=run.eval_id,
        name=run.name,
        conversation=turns,
        tags=[str(t) for t in tags] if isinstance(tags, list) else [],
    )
    rules = _detail(run, RULES_KEY)  # the case's trajectory rules, as the criterion kept them
    if rules is not None:
        case.metadata[RULES_KEY] = rules  # not validated: read (or refused) when scored
    return case


class _Rescorer:
    """One rescoring: the criteria, the expectations, and what it counted."""

    def __init__(self, config: EvalConfig, cases: dict[tuple[str, str], EvalCase]) -> None:
        self.config = config
        self.criteria: list[BaseCriterion] = build_criteria(config)
        self.cases = cases
        self.from_report = 0
        self.from_eval_set = 0
        concurrency = config.effective_concurrency
        for pool in {id(p): p for c in self.criteria if (p := c.shared_judge_pool)}.values():
            pool.limit_to(concurrency)
        self.judged = any(c.requires_judge for c in self.criteria)
        self.bound = asyncio.Semaphore(concurrency)

    def case_for(self, set_id: str, result: EvalCaseResult) -> EvalCase:
        case = self.cases.get((set_id, result.eval_id))
        if case is not None:
            self.from_eval_set += 1
            return case
        self.from_report += 1
        return expectations_from_result(result)

    async def rescore_run(self, run: EvalCaseResult, case: EvalCase) -> EvalCaseResult:
        if run.is_error:
            return run
        criteria = await score_criteria(self.criteria, execution_from_result(run), case)
        judge_tokens = TokenUsage.total(cr.token_usage for cr in criteria)
        unjudged = no_verdict_error(criteria)  # a judge gave no verdict: the case errs
        metadata = run.metadata
        if unjudged is not None:
            metadata = {**run.metadata, "error_info": unjudged[1]}
        rescored = run.model_copy(
            update={
                "criterion_results": criteria,
                "passed": unjudged is None and all(cr.passed for cr in criteria),
                "error": unjudged[0] if unjudged is not None else None,
                "metadata": metadata,
                "token_usage": run.agent_token_usage + judge_tokens
                if judge_tokens
                else run.agent_token_usage,
                "cost_usd": None,
            }
        )
        return price_case(rescored, self.config.prices, self.config.agent_model)

    async def rescore_case(self, set_id: str, result: EvalCaseResult) -> EvalCaseResult:
        case = self.case_for(set_id, result)
        if self.judged:
            async with self.bound:
                runs = [await self.rescore_run(run, case) for run in result.runs]
        else:
            runs = [await self.rescore_run(run, case) for run in result.runs]
        if result.repeat_results is None:
            return runs[0]
        return aggregate_repeats(runs, self.config.pass_rule)


async def rescore_report(
    report: EvalReport,
    config: EvalConfig,
    *,
    eval_sets: EvalSet | Sequence[EvalSet] | None = None,
) -> EvalReport:
    """A new report with every criterion of ``config`` scored on what ``report`` stored.

    See the module doc for where expectations come from and what is recorded.
    Cases keep their order, ids, trajectories, replies, durations and agent tokens;
    criterion results, ``passed``, judge tokens and repeat figures are new. Raises
    :class:`~tenxeval_tui.evaluation.criteria.CriterionConfigError` for a config whose
    criteria cannot run, before anything is scored.
    """
    sets = [eval_sets] if isinstance(eval_sets, EvalSet) else list(eval_sets or [])
    cases = {(s.eval_set_id, c.eval_id): c for s in sets for c in s.eval_cases}
    rescorer = _Rescorer(config, cases)
    keys = [r.eval_set_id or report.eval_set_id for r in report.results]
    if rescorer.judged:
        results = list(
            await asyncio.gather(
                *(rescorer.rescore_case(k, r) for k, r in zip(keys, report.results, strict=True))
            )
        )
        return _new_report(report, config, rescorer, results)
    # Deterministic criteria never wait, so nothing else runs meanwhile: the collector
    # is held off while the new report is built, then its objects go straight to the
    # oldest generation (built_long_lived). Collections during the scoring walked the
    # whole report being rescored (a third of the time of 10,000 cases); and the first
    # young collection after a plain pause scanned every object made meanwhile (a
    # further sixth).
    with built_long_lived():
        results = [
            await rescorer.rescore_case(k, r) for k, r in zip(keys, report.results, strict=True)
        ]
        return _new_report(report, config, rescorer, results)


def _new_report(
    report: EvalReport, config: EvalConfig, rescorer: _Rescorer, results: list[EvalCaseResult]
) -> EvalReport:
    metadata = {**report.metadata, RESCORED_KEY: _record(report, rescorer, results)}
    if isinstance(report.metadata.get(PROVENANCE_KEY), dict):
        # the agent's run is the original's; its scoring is this config's
        metadata[PROVENANCE_KEY] = {
            **report.metadata[PROVENANCE_KEY],
            "config_sha256": config_sha256(config),
            "judge_models": judge_models(config),
        }
    return EvalReport.create(
        eval_set_id=report.eval_set_id,
        results=results,
        eval_set_name=report.eval_set_name,
        config_used=config.model_dump(mode="json"),
        metadata=metadata,
        wall_seconds=report.summary.wall_seconds,  # the agent's run, which is not redone
    )


def _record(
    report: EvalReport, rescorer: _Rescorer, results: list[EvalCaseResult]
) -> dict[str, Any]:
    """What ``metadata["rescored"]`` says: when, from what, and what judging cost."""
    calls = hits = 0
    for result in results:
        for run in result.runs:
            for cr in run.criterion_results:
                calls += _count(cr, "judge_calls")
                hits += _count(cr, "cache_hits")
    if rescorer.from_report and rescorer.from_eval_set:
        source = "mixed"
    else:
        source = "report" if rescorer.from_report else "eval_set"
    return {
        "at": time.time(),
        "original_timestamp": report.timestamp,
        "original_config": report.config_used,
        "expectations": source,
        "cases_with_expectations_from_report": rescorer.from_report,
        "judge_calls": calls,
        "cache_hits": hits,
    }


def _count(result: CriterionResult, key: str) -> int:
    value = result.details.get(key, 0)
    return value if isinstance(value, int) else 0


__all__ = [
    "RESCORED_KEY",
    "execution_from_result",
    "expectations_from_result",
    "rescore_report",
]
