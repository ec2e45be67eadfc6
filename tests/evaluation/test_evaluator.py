"""AgentEvaluator on real 10xGraph graphs and plain agents."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import Sequence
from types import SimpleNamespace

import pytest

from sample_evals.plain_agent import support_agent
from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    AgentEvaluator,
    BaseCriterion,
    CriterionConfigError,
    CriterionResult,
    EvalCase,
    EvalCaseResult,
    EvalReport,
    EvalSet,
    ExecutionResult,
    RunObserver,
    SessionInput,
    SyncCriterion,
    TokenUsage,
    Trace,
    create_eval_app,
    register_criterion,
    run_eval,
)
from tenxeval_tui.evaluation import agent_evaluator as agent_evaluator_module
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY
from tenxeval_tui.evaluation.execution.result import NodeResponseData
from tests.waiting import wait_async

from .conftest import config_with

CITIES = [f"City{chr(ord('a') + i)}{chr(ord('a') + i)}" for i in range(24)]


@register_criterion
class MentionsCity(SyncCriterion):
    """1.0 when the reply names ``metadata["city"]``."""

    name = "test_mentions_city"

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        return self.result(1.0 if expected.metadata["city"] in actual.actual_response else 0.0)


@register_criterion
class Exploding(BaseCriterion):
    """Always raises."""

    name = "test_exploding"

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        raise RuntimeError("criterion bug")


@register_criterion
class CountingJudge(BaseCriterion):
    """A judge stand-in: passes, costs 110 tokens, counts its calls per case."""

    name = "test_counting_judge"
    requires_judge = True
    calls: dict[str, int] = {}

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        CountingJudge.calls[expected.eval_id] = CountingJudge.calls.get(expected.eval_id, 0) + 1
        return self.result(1.0, token_usage=TokenUsage(input_tokens=100, output_tokens=10))


class Recorder(RunObserver):
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.running = 0
        self.most_running = 0

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self.calls.append(("run_start", eval_set.eval_set_id))

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        self.calls.append(("case_start", case.eval_id))

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.running -= 1
        self.calls.append(("case_end", result.eval_id))

    def on_run_end(self, report: EvalReport) -> None:
        self.calls.append(("run_end", report.eval_set_id))


def weather_set(cities: Sequence[str]) -> EvalSet:
    cases = [
        EvalCase.single_turn(
            eval_id=f"case-{city}",
            user_query=f"What is the weather in {city}?",
            expected_tools=["get_weather"],
            metadata={"city": city},
        )
        for city in cities
    ]
    return EvalSet(eval_set_id="weather", name="Weather", eval_cases=cases)


async def test_concurrent_cases_see_only_their_own_events() -> None:
    app, collector = create_eval_app(build_graph(delay=0.01))
    recorder = Recorder()
    evaluator = AgentEvaluator(
        app,
        collector,
        config_with({"test_mentions_city": {"threshold": 1.0}}, max_concurrency=8, parallel=True),
        observers=[recorder],
    )
    report = await evaluator.evaluate(weather_set(CITIES))

    assert [r.eval_id for r in report.results] == [f"case-{city}" for city in CITIES]
    for city, result in zip(CITIES, report.results, strict=True):
        assert [(c.name, c.args) for c in result.actual_tool_calls] == [
            ("get_weather", {"location": city})
        ]
        assert result.node_visits == ["MAIN", "TOOL", "MAIN"]
        assert result.passed, result.criterion_results
        assert result.metadata[EVAL_SET_ID_KEY] == "weather"
    assert len({r.metadata["thread_id"] for r in report.results}) == len(CITIES)
    assert 1 < recorder.most_running <= 8
    assert report.summary.pass_rate == 1.0


async def test_cases_run_one_at_a_time_unless_the_config_says_parallel() -> None:
    # 10xGraph 0.10.3's `evaluate()` runs cases one by one; a config only bounds them.
    app, collector = create_eval_app(build_graph(delay=0.01))
    recorder = Recorder()
    config = config_with({"test_mentions_city": {"threshold": 1.0}}, max_concurrency=8)
    evaluator = AgentEvaluator(app, collector, config, observers=[recorder])
    report = await evaluator.evaluate(weather_set(CITIES))
    assert report.summary.pass_rate == 1.0
    assert recorder.most_running == 1


async def test_each_run_of_a_case_has_a_thread_of_its_own_without_a_system_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A random id a case took a system call for; the runs are numbered in the process.
    app, collector = create_eval_app(build_graph())
    evaluators = [AgentEvaluator(app, collector, config_with()) for _ in range(2)]

    def no_uuid() -> None:
        raise AssertionError("a case's thread id takes no random id")

    # (the evaluator's own uuid module: the graph takes ids of its own)
    monkeypatch.setattr(agent_evaluator_module, "uuid", SimpleNamespace(uuid4=no_uuid))
    threads = [
        str(result.metadata["thread_id"])
        for evaluator in evaluators
        for result in (await evaluator.evaluate(weather_set(CITIES[:3]))).results
    ]
    assert len(set(threads)) == 6
    assert all(re.fullmatch(r"eval-[0-9a-f]{8}-[0-9a-f]{12}", thread) for thread in threads)


async def test_a_case_s_token_usage_is_made_in_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each term of a sum made a usage; the agent's and the judges' are totalled at once,
    # then added together.
    app, collector = create_eval_app(build_graph())
    case = EvalCase.single_turn("t", "What is the weather in Rome?")
    evaluator = AgentEvaluator(app, collector, config_with({"test_counting_judge": {}}))
    added: list[TokenUsage] = []
    real_add = TokenUsage.__add__

    def counted(self: TokenUsage, other: TokenUsage) -> TokenUsage:
        added.append(other)
        return real_add(self, other)

    monkeypatch.setattr(TokenUsage, "__add__", counted)
    nodes = [NodeResponseData(token_usage=TokenUsage(input_tokens=i)) for i in (1, 2, 3)]
    assert ExecutionResult(node_responses=nodes).token_usage == TokenUsage(input_tokens=6)
    assert added == []
    result = await evaluator.evaluate_case(case)
    assert len(added) == 1  # the agent's and the judges'
    agent = result.agent_token_usage
    assert agent.total_tokens > 0
    assert result.token_usage == real_add(agent, TokenUsage(input_tokens=100, output_tokens=10))


async def test_multi_turn_accumulates_and_scores_once() -> None:
    app, collector = create_eval_app(build_graph())
    case = EvalCase.multi_turn(
        eval_id="chat",
        conversation=[
            ("Hello", "Hi"),
            ("What is the weather in Tokyo?", "Cloudy"),
            ("What about London?", "Rainy"),
        ],
        expected_tools=["get_weather", "get_weather"],
    )
    evaluator = AgentEvaluator(app, collector, config_with({"test_counting_judge": {}}))
    result = await evaluator.evaluate_case(case)

    assert [c.args["location"] for c in result.actual_tool_calls] == ["Tokyo", "London"]
    assert result.node_visits == ["MAIN"] + ["MAIN", "TOOL", "MAIN"] * 2
    assert [t["response"] for t in result.turn_results] == [
        "Hi! I can tell you the weather in any city.",
        "The weather in Tokyo is cloudy, 18°C.",
        "The weather in London is rainy, 14°C.",
    ]
    assert result.actual_response == "The weather in London is rainy, 14°C."
    assert CountingJudge.calls["chat"] == 1
    # The shared collector holds the last case, as after a 10xGraph evaluation.
    assert collector.get_tool_names() == ["get_weather", "get_weather"]


async def test_token_usage_counts_agent_and_judge_separately() -> None:
    app, collector = create_eval_app(build_graph())
    case = EvalCase.single_turn("t", "What is the weather in Rome?")
    evaluator = AgentEvaluator(app, collector, config_with({"test_counting_judge": {}}))
    result = await evaluator.evaluate_case(case)
    assert result.agent_token_usage.total_tokens > 0
    assert result.token_usage.total_tokens == result.agent_token_usage.total_tokens + 110


async def test_session_input_reaches_the_agent() -> None:
    seen: dict[str, object] = {}

    async def agent(message: str, trace: Trace) -> str:
        seen.update(user=trace.user_id, locale=trace.config.get("locale"))
        return await support_agent(message, trace)

    app, collector = create_eval_app(agent)
    case = EvalCase.single_turn(
        "greet",
        "Hello",
        session_input=SessionInput(
            user_id="ada", state={"customer_name": "Ada"}, config={"locale": "en-GB"}
        ),
    )
    result = await AgentEvaluator(app, collector, config_with()).evaluate_case(case)
    assert result.actual_response == "Hello Ada! How can I help with your order?"
    assert seen == {"user": "ada", "locale": "en-GB"}


async def test_an_agent_that_raises_makes_an_error_case() -> None:
    app, collector = create_eval_app(build_graph())
    cases = [
        EvalCase.multi_turn("boom", [("Hello", None), ("please crash", None)]),
        EvalCase.single_turn("fine", "What is the weather in Oslo?", metadata={"city": "Oslo"}),
    ]
    evaluator = AgentEvaluator(app, collector, config_with({"test_mentions_city": {}}))
    report = await evaluator.evaluate(EvalSet(eval_set_id="s", eval_cases=cases))

    boom, fine = report.results
    assert boom.error == "RuntimeError: model backend unavailable (turn 2 of 2)"
    assert boom.metadata["error_info"]["turn_index"] == 1
    assert "NodeError" in boom.metadata["error_info"]["wrapped_by"]
    assert boom.criterion_results == [] and not boom.passed
    assert fine.passed
    assert (report.summary.error_cases, report.summary.failed_cases) == (1, 0)


async def test_an_agent_exiting_or_raising_keyboardinterrupt_makes_an_error_case() -> None:
    def agent(message: str, trace: Trace) -> str:  # sync: raised in the loop's own thread
        trace.node("MAIN", response=message)
        if message == "exit":
            sys.exit(3)
        if message == "interrupt":
            raise KeyboardInterrupt
        return message

    app, collector = create_eval_app(agent)
    cases = [EvalCase.single_turn(m, m, m) for m in ("exit", "interrupt", "fine")]
    report = await AgentEvaluator(app, collector, config_with({"exact_match": {}})).evaluate(
        EvalSet(eval_set_id="x", eval_cases=cases)
    )
    exited, interrupted, fine = report.results
    assert exited.error == (
        "SystemExit: the agent tried to end the process (sys.exit(3)) (turn 1 of 1)"
    )
    assert exited.metadata["error_info"]["error_type"] == "SystemExit"
    assert interrupted.error == "KeyboardInterrupt (turn 1 of 1)"
    assert fine.passed


@pytest.mark.slow
async def test_a_case_past_its_timeout_is_an_error_case() -> None:
    async def slow_agent(message: str, trace: Trace) -> str:
        if message == "slow":
            await asyncio.sleep(30)
        return "ok"

    app, collector = create_eval_app(slow_agent)
    cases = [EvalCase.single_turn("slow", "slow"), EvalCase.single_turn("quick", "quick")]
    evaluator = AgentEvaluator(app, collector, config_with(timeout=0.2))
    report = await evaluator.evaluate(EvalSet(eval_set_id="t", eval_cases=cases))
    slow, quick = report.results
    assert slow.error == "timed out after 0.2s (turn 1 of 1)"
    assert quick.passed and quick.actual_response == "ok"


async def test_a_criterion_that_raises_fails_alone() -> None:
    app, collector = create_eval_app(build_graph())
    config = config_with({"test_exploding": {}, "test_mentions_city": {"threshold": 1.0}})
    case = EvalCase.single_turn("c", "What is the weather in Paris?", metadata={"city": "Paris"})
    result = await AgentEvaluator(app, collector, config).evaluate_case(case)
    exploding = result.get_criterion_result("test_exploding")
    mentions = result.get_criterion_result("test_mentions_city")
    assert exploding is not None and exploding.error == "RuntimeError: criterion bug"
    assert not exploding.passed
    assert mentions is not None and mentions.passed
    assert not result.passed and result.error is None


def test_misconfigured_criteria_fail_before_anything_runs() -> None:
    app, collector = create_eval_app(support_agent)
    with pytest.raises(CriterionConfigError, match="no_such_criterion"):
        AgentEvaluator(app, collector, config_with({"no_such_criterion": {}}))


def sleepy_agent_set(count: int) -> tuple[object, object, EvalSet]:
    async def agent(message: str, trace: Trace) -> str:
        await asyncio.sleep(0.05)
        return message

    app, collector = create_eval_app(agent)
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}") for i in range(count)]
    return app, collector, EvalSet(eval_set_id="sleepy", eval_cases=cases)


async def test_cancel_keeps_finished_cases_and_counts_no_others() -> None:
    app, collector, eval_set = sleepy_agent_set(20)

    class CancelAfterThree(Recorder):
        def on_case_end(self, result: EvalCaseResult) -> None:
            super().on_case_end(result)
            if sum(1 for kind, _ in self.calls if kind == "case_end") == 3:
                evaluator.cancel()

    recorder = CancelAfterThree()
    evaluator = AgentEvaluator(app, collector, config_with(max_concurrency=1), observers=[recorder])
    report = await evaluator.evaluate(eval_set)
    started = [name for kind, name in recorder.calls if kind == "case_start"]
    assert len(started) <= 4  # the cancel stopped the run: no case after the next one started
    assert report.is_partial
    assert [r.eval_id for r in report.results] == ["c0", "c1", "c2"]
    assert report.summary.total_cases == 3
    assert recorder.calls[-1] == ("run_end", "sleepy")


async def test_cancelling_the_task_stops_promptly_and_keeps_a_partial_report() -> None:
    app, collector, eval_set = sleepy_agent_set(40)
    recorder = Recorder()
    evaluator = AgentEvaluator(app, collector, config_with(max_concurrency=4), observers=[recorder])
    task = asyncio.create_task(evaluator.evaluate(eval_set))
    await wait_async(
        lambda: sum(1 for kind, _ in recorder.calls if kind == "case_end") >= 4,
        lambda: asyncio.sleep(0.01),
    )
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    partial = evaluator.partial_report
    assert partial is not None and partial.is_partial
    finished = [r.eval_id for r in partial.results]
    assert 4 <= len(finished) < 40
    assert finished == [f"c{i}" for i in range(len(finished))]
    assert recorder.calls[-1] == ("run_end", "sleepy")


async def test_run_eval_reads_the_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "w.evalset.json"
    weather_set(["Paris", "Rome"]).to_file(path)
    app, collector = create_eval_app(build_graph())
    report = await run_eval(
        app, collector, str(path), config=config_with({"test_mentions_city": {}})
    )
    assert report.eval_set_id == "weather"
    assert report.summary.passed_cases == 2


async def test_session_input_reaches_a_10xgraph_graph() -> None:
    from tenxgraph.core.graph import StateGraph
    from tenxgraph.core.state import AgentState
    from tenxgraph.core.state.message import Message
    from tenxgraph.utils.constants import END

    class ShopState(AgentState):
        customer: str = ""

    def greet(state: ShopState, config: dict[str, object]) -> list[Message]:
        text = f"Hello {state.customer} ({config['user_id']}, {config.get('locale')})"
        return [Message.text_message(text, role="assistant")]

    graph = StateGraph(ShopState())
    graph.add_node("GREET", greet)
    graph.set_entry_point("GREET")
    graph.add_edge("GREET", END)
    app, collector = create_eval_app(graph)
    case = EvalCase.single_turn(
        "s",
        "Hi",
        session_input=SessionInput(
            user_id="ada", state={"customer": "Ada"}, config={"locale": "en-GB"}
        ),
    )
    result = await AgentEvaluator(app, collector, config_with()).evaluate_case(case)
    assert result.error is None
    assert result.actual_response == "Hello Ada (ada, en-GB)"
    assert result.node_visits == ["GREET"]


@pytest.mark.slow
async def test_a_timeout_holds_for_agents_that_block_or_swallow_the_cancel() -> None:
    turns_run: list[str] = []

    async def blocking(message: str, trace: Trace) -> str:
        turns_run.append(message)
        time.sleep(0.3)  # sync code on the event loop: the timeout cannot interrupt it
        return "ok"

    async def swallowing(message: str, trace: Trace) -> str:
        turns_run.append(message)
        with contextlib.suppress(asyncio.CancelledError):  # the timeout's cancel, eaten
            await asyncio.sleep(30)
        return "ok"

    two_turns = EvalCase.multi_turn("two", [("one", "ok"), ("two", "ok")])
    for agent in (blocking, swallowing):
        app, collector = create_eval_app(agent)
        evaluator = AgentEvaluator(app, collector, config_with(timeout=0.1))
        turns_run.clear()
        (result,) = (
            await evaluator.evaluate(EvalSet(eval_set_id="t", eval_cases=[two_turns]))
        ).results
        assert result.error == "timed out after 0.1s (turn 1 of 2)", agent.__name__
        assert turns_run == ["one"]  # the second turn did not run
        assert result.metadata["error_info"]["error_type"] == "Timeout"


async def test_an_agent_raising_cancelled_error_errs_its_case_only() -> None:
    async def agent(message: str, trace: Trace) -> str:
        if message == "q0":
            raise asyncio.CancelledError  # e.g. a client library's own cancellation
        return "ok"

    app, collector = create_eval_app(agent)
    cases = [EvalCase.single_turn(f"q{i}", f"q{i}") for i in range(4)]
    evaluator = AgentEvaluator(app, collector, config_with(max_concurrency=1))
    report = await evaluator.evaluate(EvalSet(eval_set_id="t", eval_cases=cases))
    assert [r.eval_id for r in report.results] == ["q0", "q1", "q2", "q3"]
    assert not report.is_partial and report.summary.error_cases == 1
    assert report.results[0].error is not None and "CancelledError" in report.results[0].error


@register_criterion
class ForgetsToReturn(BaseCriterion):
    name = "test_forgets_to_return"

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        return None  # type: ignore[return-value]


async def test_what_cannot_make_a_result_errs_that_case_not_the_run() -> None:
    class Opaque:
        pass

    async def agent(message: str, trace: Trace) -> str:
        if message == "odd":
            trace.node("MAIN", input_messages=[{"role": "user", "content": Opaque()}])
        return "ok"

    app, collector = create_eval_app(agent)
    cases = [EvalCase.single_turn("odd", "odd"), EvalCase.single_turn("fine", "fine")]
    config = config_with({"test_forgets_to_return": {"threshold": 0.5}})
    report = await AgentEvaluator(app, collector, config).evaluate(
        EvalSet(eval_set_id="t", eval_cases=cases)
    )
    odd, fine = report.results
    assert odd.error is not None and odd.error.startswith("the case's result could not be built")
    (criterion,) = fine.criterion_results
    assert criterion.error == "TypeError: evaluate() returned NoneType, not a CriterionResult"


async def test_tool_results_json_has_no_form_for_are_kept_as_text() -> None:
    class Forecast:
        def __str__(self) -> str:
            return "Forecast(sunny)"

    async def agent(message: str, trace: Trace) -> str:
        trace.record_tool("forecast", {"when": Forecast()}, {"today": Forecast()})
        return "sunny"

    app, collector = create_eval_app(agent)
    report = await AgentEvaluator(app, collector, config_with()).evaluate(
        EvalSet(eval_set_id="t", eval_cases=[EvalCase.single_turn("a", "weather?")])
    )
    (call,) = report.results[0].actual_tool_calls
    assert (call.args, call.result) == ({"when": "Forecast(sunny)"}, {"today": "Forecast(sunny)"})
    assert EvalReport.model_validate_json(report.model_dump_json()) == report


async def test_an_agents_own_exception_is_reported_not_its_cause() -> None:
    class ServiceUnavailable(Exception):
        pass

    async def agent(message: str, trace: Trace) -> str:
        try:
            {}["endpoint"]
        except KeyError as exc:
            raise ServiceUnavailable("order service is down") from exc
        return "never"

    app, collector = create_eval_app(agent)
    report = await AgentEvaluator(app, collector, config_with()).evaluate(
        EvalSet(eval_set_id="t", eval_cases=[EvalCase.single_turn("a", "hi")])
    )
    assert report.results[0].error == "ServiceUnavailable: order service is down (turn 1 of 1)"


async def test_tools_recorded_from_a_worker_thread_count_for_their_case() -> None:
    def lookup(city: str) -> str:
        return f"sunny in {city}"

    async def agent(message: str, trace: Trace) -> str:
        def blocking_tool() -> str:  # executors do not carry the case's context
            result = lookup(message)
            trace.record_tool("lookup", {"city": message}, result)
            return result

        return await asyncio.get_running_loop().run_in_executor(None, blocking_tool)

    app, collector = create_eval_app(agent)
    cases = [EvalCase.single_turn(city, city) for city in ("Oslo", "Rome", "Lima")]
    report = await AgentEvaluator(app, collector, config_with(max_concurrency=3)).evaluate(
        EvalSet(eval_set_id="t", eval_cases=cases)
    )
    assert [[(c.name, c.args) for c in r.actual_tool_calls] for r in report.results] == [
        [("lookup", {"city": city})] for city in ("Oslo", "Rome", "Lima")
    ]


async def test_a_streaming_agent_replies_with_its_chunks() -> None:
    async def streaming(message: str, trace: Trace):  # type: ignore[no-untyped-def]
        for chunk in ("Hello", " ", "there", None):
            yield chunk

    def generating(message: str, trace: Trace):  # type: ignore[no-untyped-def]
        yield from ("Hi", "!")

    for agent, reply in ((streaming, "Hello there"), (generating, "Hi!")):
        app, collector = create_eval_app(agent)
        report = await AgentEvaluator(app, collector, config_with()).evaluate(
            EvalSet(eval_set_id="t", eval_cases=[EvalCase.single_turn("a", "hi")])
        )
        assert report.results[0].actual_response == reply


class _CallerNoting(SyncCriterion):
    """A sync criterion noting which code called its ``evaluate_sync``; raises on "boom"."""

    name = "test_caller_noting"
    callers: list[str] = []

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        self.callers.append(sys._getframe(1).f_code.co_name)
        if actual.actual_response == "boom":
            raise ValueError("no verdict for boom")
        return self.result(1.0 if actual.actual_response == "yes" else 0.0)


def _noting_criterion() -> _CallerNoting:
    from tenxeval_tui.evaluation.config.eval_config import CriterionConfig

    criterion = _CallerNoting(CriterionConfig(threshold=1.0))
    criterion.callers = []
    return criterion


async def test_a_sync_criterion_is_scored_without_a_coroutine_of_its_own() -> None:
    # SyncCriterion.evaluate only returns evaluate_sync: every case of a run scores each
    # criterion, and a coroutine per criterion cost more than an exact match itself.
    criterion = _noting_criterion()
    case = EvalCase.single_turn("a", "q?")
    yes, boom = (ExecutionResult(actual_response=reply) for reply in ("yes", "boom"))
    (passed,) = await agent_evaluator_module.score_criteria([criterion], yes, case)
    (failed,) = await agent_evaluator_module.score_criteria([criterion], boom, case)
    assert "evaluate" not in criterion.callers
    assert passed.passed and passed.score == 1.0 and passed.criterion == "test_caller_noting"
    assert failed.error == "ValueError: no verdict for boom" and not failed.passed


async def test_a_sync_criterion_given_its_own_evaluate_is_scored_by_it() -> None:
    criterion = _noting_criterion()

    async def evaluate(actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        return criterion.result(0.5)

    criterion.evaluate = evaluate  # type: ignore[method-assign]
    execution = ExecutionResult(actual_response="yes")
    (result,) = await agent_evaluator_module.score_criteria(
        [criterion], execution, EvalCase.single_turn("a", "q?")
    )
    assert result.score == 0.5 and criterion.callers == []
