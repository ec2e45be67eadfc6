"""AgentEvaluator.evaluate_stream: cases taken as the run reaches them, no result kept, the
summary's counts from running totals; and a provenance given is not worked out again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalCaseResult,
    EvalConfig,
    EvalSet,
    EvaluationRunner,
    RunObserver,
    create_eval_app,
)
from tenxeval_tui.evaluation import agent_evaluator as agent_evaluator_module
from tenxeval_tui.evaluation.eval_result import PROVENANCE_KEY

from .conftest import config_with


async def echo(message: str, trace: object) -> str:
    return "wrong" if message.startswith("fail") else message


def _cases(texts: Sequence[str]) -> list[EvalCase]:
    return [EvalCase.single_turn(f"c{i}", text, text) for i, text in enumerate(texts)]


class Starts(RunObserver):
    def __init__(self) -> None:
        self.planned: list[str] = []
        self.started: list[str] = []
        self.ended: list[EvalCaseResult] = []

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.planned = [case.eval_id for case in cases]

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.started.append(case.eval_id)

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.ended.append(result)


def _exact(concurrency: int) -> EvalConfig:
    return config_with({"exact_match": {"threshold": 1.0}}, max_concurrency=concurrency)


async def test_each_case_is_taken_when_the_run_reaches_it_and_no_result_is_kept() -> None:
    cases = _cases(["a", "fail b", "c", "d", "fail e"])
    taken: list[str] = []
    starts = Starts()

    def lazily() -> Iterator[EvalCase]:
        for case in cases:
            # one case at a time: the case before this one has started, none after it
            assert starts.started == taken
            taken.append(case.eval_id)
            yield case

    app, collector = create_eval_app(echo)
    evaluator = AgentEvaluator(app, collector, _exact(1), observers=[starts])
    eval_set = EvalSet(eval_set_id="s", name="S")

    report = await evaluator.evaluate_stream(eval_set, lazily(), cases, provenance={"p": 1})

    assert starts.planned == [c.eval_id for c in cases]
    assert starts.started == taken == [c.eval_id for c in cases]
    assert [r.passed for r in starts.ended] == [True, False, True, True, False]
    assert report.results == []
    summary = report.summary
    assert (summary.total_cases, summary.passed_cases, summary.failed_cases) == (5, 3, 2)
    assert summary.error_cases == 0
    assert summary.pass_rate == pytest.approx(0.6)
    assert summary.wall_seconds is not None
    assert report.metadata[PROVENANCE_KEY] == {"p": 1}
    assert not report.is_partial


async def test_several_at_once_take_at_most_that_many_cases_ahead() -> None:
    cases = _cases([f"m{i}" for i in range(12)])
    taken: list[str] = []
    starts = Starts()

    def lazily() -> Iterator[EvalCase]:
        for case in cases:
            assert len(taken) - len(starts.ended) <= 3  # 3 running at most, none waiting
            taken.append(case.eval_id)
            yield case

    app, collector = create_eval_app(echo)
    evaluator = AgentEvaluator(app, collector, _exact(3), observers=[starts])

    report = await evaluator.evaluate_stream(EvalSet(eval_set_id="s"), lazily(), cases)

    assert report.summary.total_cases == report.summary.passed_cases == 12
    assert sorted(r.eval_id for r in starts.ended) == sorted(c.eval_id for c in cases)


async def test_a_streamed_run_has_no_cost_budget() -> None:
    app, collector = create_eval_app(echo)
    config = _exact(1)
    config.max_cost = 1.0
    evaluator = AgentEvaluator(app, collector, config)
    with pytest.raises(ValueError, match="max_cost"):
        await evaluator.evaluate_stream(EvalSet(eval_set_id="s"), iter([]), [])


async def test_a_provenance_the_runner_is_given_is_not_worked_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_again(*args: object, **kwargs: object) -> dict[str, object]:
        raise AssertionError("the provenance was worked out again")

    monkeypatch.setattr(agent_evaluator_module, "run_provenance", not_again)
    app, collector = create_eval_app(echo)
    eval_set = EvalSet(eval_set_id="s", eval_cases=_cases(["a", "b"]))
    runner = EvaluationRunner(_exact(1), provenances={"s": {"eval_set_sha256": "given"}})

    reports = await runner.run([(app, collector, eval_set)])

    assert reports["s"].metadata[PROVENANCE_KEY] == {"eval_set_sha256": "given"}
    assert reports["s"].summary.passed_cases == 2


class CancelSoon(RunObserver):
    """At the first case's start, asks the loop to cancel the run (as SIGTERM's handler
    or a command from stdin would)."""

    def __init__(self) -> None:
        self.evaluator: AgentEvaluator | None = None

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        if case.eval_id == "c0" and self.evaluator is not None:
            asyncio.get_running_loop().call_soon(self.evaluator.cancel)


async def test_an_agent_that_never_waits_still_lets_the_loop_cancel_the_run() -> None:
    # The loop's callbacks (a signal's, a command's, its timers' clean-up) ran only once
    # every case had run: a zero-latency agent never gave the loop a turn.
    canceller = CancelSoon()
    app, collector = create_eval_app(echo)
    evaluator = AgentEvaluator(app, collector, _exact(1), observers=[canceller])
    canceller.evaluator = evaluator

    report = await evaluator.evaluate(EvalSet(eval_set_id="s", eval_cases=_cases(["m"] * 200)))

    assert report.is_partial
    assert report.summary.total_cases < 5
