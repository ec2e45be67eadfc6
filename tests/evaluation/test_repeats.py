"""Repeats: every case run N times, each run kept, the case decided by the pass rule."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import pytest

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    EvalCase,
    EvalCaseResult,
    EvalReport,
    EvalSet,
    EventModel,
    JsonLinesObserver,
    RunObserver,
    create_eval_app,
    replay_json_lines,
)
from tenxeval_tui.evaluation.repeats import RepeatsError, resolve_repeats

from .coin_agent import EXACT, GOOD, CoinAgent, coin_set
from .conftest import config_with


async def run(
    agent: CoinAgent,
    eval_set: EvalSet,
    observers: Sequence[RunObserver] = (),
    **config: object,
) -> EvalReport:
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector, config_with(EXACT, **config), observers=observers)
    return await evaluator.evaluate(eval_set)


async def test_every_repeat_is_kept_and_the_case_passes_only_when_all_do() -> None:
    agent = CoinAgent(0.7, seed=11)
    report = await run(agent, coin_set(12), repeats=5, max_concurrency=3)

    flaky = 0
    for index, result in enumerate(report.results):
        outcomes = agent.expected(f"question {index}", 5)
        runs = result.repeat_results
        assert runs is not None and len(runs) == 5
        assert sorted(r.repeat_index for r in runs) == [0, 1, 2, 3, 4]
        assert sorted(r.passed for r in runs) == sorted(outcomes)
        assert result.passed == all(outcomes)
        stats = result.repeat_stats
        assert stats is not None
        assert stats.passed_repeats == sum(outcomes)
        assert stats.pass_rate == sum(outcomes) / 5
        # the top-level criterion is the mean over the repeats
        assert result.criterion_results[0].score == pytest.approx(sum(outcomes) / 5)
        assert result.criterion_results[0].details["repeat_scores"] == [
            1.0 if r.passed else 0.0 for r in runs
        ]
        # the top level shows a repeat whose outcome is the case's
        shown = runs[stats.representative]
        assert shown.passed == result.passed
        assert result.actual_response == shown.actual_response
        assert result.agent_token_usage.total_tokens == 5 * 8
        flaky += stats.is_flaky
    threads = [r.metadata["thread_id"] for c in report.results for r in c.repeat_results or []]
    assert len(set(threads)) == 60
    assert sum(agent.calls.values()) == 60
    assert flaky > 0  # the seed gives a mix, or this test would prove little
    summary = report.summary
    assert summary.total_cases == 12
    assert summary.repeat_stats is not None
    assert summary.repeat_stats.total_repeats == 60
    assert summary.repeat_stats.flaky_cases == flaky
    runs_passed = sum(r.repeat_stats.passed_repeats for r in report.results if r.repeat_stats)
    text = report.format_summary()
    assert f"Repeats: {runs_passed}/60 runs passed" in text
    assert f"{flaky} flaky cases" in text
    low, high = summary.pass_rate_interval()
    assert f"Pass rate 95% interval: {low:.1%} to {high:.1%} (Wilson)" in text


async def test_a_pass_rate_rule_decides_by_the_share_of_passing_repeats() -> None:
    agent = CoinAgent(0.6, seed=5)
    report = await run(agent, coin_set(20), repeats=5, pass_rule=0.6)
    decided = [sum(agent.expected(f"question {i}", 5)) >= 3 for i in range(20)]
    assert [r.passed for r in report.results] == decided
    assert 0 < sum(decided) < 20
    assert all(r.repeat_stats and r.repeat_stats.pass_rule == 0.6 for r in report.results)


async def test_repeats_count_against_the_concurrency_bound() -> None:
    agent = CoinAgent(1.0, delay=0.01)
    await run(agent, coin_set(2), repeats=6, max_concurrency=4, parallel=True)
    assert agent.most_running == 4
    agent = CoinAgent(1.0, delay=0.01)
    await run(agent, coin_set(2), repeats=6, max_concurrency=4, parallel=False)
    assert agent.most_running == 1


async def test_repeats_come_from_the_case_then_the_eval_set_then_the_config() -> None:
    eval_set = coin_set(3, repeats=2)
    eval_set.eval_cases[1].metadata["repeats"] = 4
    agent = CoinAgent(1.0)
    report = await run(agent, eval_set, repeats=7)
    assert [len(r.runs) for r in report.results] == [2, 4, 2]
    plain = coin_set(1)
    assert resolve_repeats(config_with(EXACT, repeats=3), plain, plain.eval_cases[0]) == 3


@pytest.mark.parametrize("bad", [0, -1, 2.5, "5", True, 10_001])
async def test_a_bad_repeats_value_fails_before_anything_runs(bad: object) -> None:
    eval_set = coin_set(2)
    eval_set.eval_cases[1].metadata["repeats"] = bad
    agent = CoinAgent(1.0)
    with pytest.raises(RepeatsError, match=r"eval set 'coins', case 'q1'.*repeats"):
        await run(agent, eval_set)
    assert agent.calls == {}


async def test_a_case_run_once_keeps_the_shape_it_always_had() -> None:
    report = await run(CoinAgent(1.0), coin_set(2))
    data = json.loads(report.to_json())
    assert "repeat_stats" not in data["summary"]
    for result in data["results"]:
        assert "repeat_results" not in result and "repeat_stats" not in result
        assert "repeat" not in result["metadata"]
    assert "repeats" not in data["config_used"] and "pass_rule" not in data["config_used"]
    assert report.results[0].runs == [report.results[0]]


async def test_a_report_with_repeats_loads_back_equal(tmp_path: object) -> None:
    report = await run(CoinAgent(0.5, seed=3), coin_set(4), repeats=3, pass_rule=0.5)
    path = f"{tmp_path}/report.json"
    report.to_file(path)
    loaded = EvalReport.from_file(path)
    assert loaded == report
    assert loaded.results[0].repeat_results is not None
    assert loaded.results[0].repeat_results[2].repeat_index == 2
    assert loaded.config_used["repeats"] == 3


async def test_errored_repeats_count_as_not_passed_and_all_errored_is_an_error() -> None:
    calls = {"n": 0}

    async def sometimes_raises(message: str, trace: object) -> str:
        calls["n"] += 1
        if message == "always" or calls["n"] % 2 == 0:
            raise RuntimeError("boom")
        return GOOD

    cases = [
        EvalCase.single_turn("half", "half", expected_response=GOOD),
        EvalCase.single_turn("all", "always", expected_response=GOOD),
    ]
    app, collector = create_eval_app(sometimes_raises)
    evaluator = AgentEvaluator(
        app, collector, config_with(EXACT, repeats=4, pass_rule=0.5, max_concurrency=1)
    )
    report = await evaluator.evaluate(EvalSet(eval_set_id="e", eval_cases=cases))
    half, always = report.results
    assert half.repeat_stats is not None and half.repeat_stats.errored_repeats == 2
    assert half.passed and half.error is None and half.status == "passed"
    assert always.status == "error" and always.error is not None and "boom" in always.error
    assert report.summary.error_cases == 1 and report.summary.passed_cases == 1


class RepeatRecorder(RunObserver):
    """Knows which repeat each event belongs to."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []
        self.events: list[tuple[str, int, str]] = []

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.calls.append(("case_start", case.eval_id))

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        self.calls.append(("repeat_start", case.eval_id, repeat, repeats))

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        self.events.append((eval_id, repeat, event.thread_id))

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        self.calls.append(("repeat_end", eval_id, result.repeat_index, result.passed))

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.calls.append(("case_end", result.eval_id, len(result.runs)))


class OldObserver(RunObserver):
    """Written before repeats: knows on_event only."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.cases: list[str] = []

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self.events.append(eval_id)

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.cases.append(result.eval_id)


async def test_observers_see_each_repeat_and_old_observers_keep_working() -> None:
    recorder, old = RepeatRecorder(), OldObserver()
    agent = CoinAgent(0.5, seed=2)
    report = await run(agent, coin_set(2), [recorder, old], repeats=3, max_concurrency=1)

    q0 = [c for c in recorder.calls if c[1] == "q0"]
    assert q0[0] == ("case_start", "q0")
    assert [c[:4] for c in q0[1:-1:2]] == [("repeat_start", "q0", r, 3) for r in range(3)]
    ends = [c for c in q0 if c[0] == "repeat_end"]
    assert [c[3] for c in ends] == agent.expected("question 0", 3)
    assert q0[-1] == ("case_end", "q0", 3)
    # every event is tagged with its repeat, whose thread it came from
    threads = {
        (r.eval_id, r.repeat_index): r.metadata["thread_id"] for c in report.results for r in c.runs
    }
    assert {(e, r) for e, r, _ in recorder.events} == set(threads)
    assert all(threads[(e, r)] == t for e, r, t in recorder.events)
    # the observer written before repeats saw the same events and one end per case
    assert len(old.events) == len(recorder.events)
    assert old.cases == ["q0", "q1"]


async def test_json_lines_stream_repeats_and_replay_them() -> None:
    out = io.StringIO()
    await run(CoinAgent(0.5, seed=4), coin_set(2), [JsonLinesObserver(out.write)], repeats=2)
    lines = out.getvalue().splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds.count("repeat_start") == 4 and kinds.count("repeat_end") == 4
    events = [
        json.loads(line) for line in lines if '"type": "event"' in line or '"type":"event"' in line
    ]
    assert events and all("repeat" in e for e in events)

    recorder = RepeatRecorder()
    assert replay_json_lines(lines, recorder) == len(lines)
    assert sorted({(e, r) for e, r, _ in recorder.events}) == [
        ("q0", 0),
        ("q0", 1),
        ("q1", 0),
        ("q1", 1),
    ]
    assert [c for c in recorder.calls if c[0] == "case_end"] == [
        ("case_end", "q0", 2),
        ("case_end", "q1", 2),
    ]

    once = io.StringIO()
    await run(CoinAgent(1.0), coin_set(1), [JsonLinesObserver(once.write)])
    assert "repeat" not in once.getvalue()


async def test_evaluate_case_runs_the_case_repeats() -> None:
    agent = CoinAgent(0.5, seed=9)
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(app, collector, config_with(EXACT, repeats=4))
    result = await evaluator.evaluate_case(coin_set(1).eval_cases[0])
    assert [r.passed for r in result.runs] == agent.expected("question 0", 4)


class CancelAfter(RunObserver):
    """Cancels the run once ``count`` repeats have finished."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.evaluator: AgentEvaluator | None = None

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        self.count -= 1
        if self.count == 0 and self.evaluator is not None:
            self.evaluator.cancel()


async def test_a_cancelled_run_keeps_only_cases_whose_repeats_all_finished() -> None:
    agent = CoinAgent(1.0, delay=0.005)
    stopper = CancelAfter(7)  # case 0's three repeats, case 1's three, one of case 2's
    app, collector = create_eval_app(agent)
    evaluator = AgentEvaluator(
        app, collector, config_with(EXACT, repeats=3, max_concurrency=1), observers=[stopper]
    )
    stopper.evaluator = evaluator
    report = await evaluator.evaluate(coin_set(5))
    assert report.is_partial
    assert [r.eval_id for r in report.results] == ["q0", "q1"]
    assert all(len(r.runs) == 3 for r in report.results)


async def test_the_journal_rebuilds_a_report_with_repeats(tmp_path: object) -> None:
    from tenxeval_tui.evaluation import RunJournal, report_from_journal

    path = f"{tmp_path}/run.jsonl"
    report = await run(CoinAgent(0.5, seed=8), coin_set(3), [RunJournal(path)], repeats=4)
    rebuilt = report_from_journal(path)
    assert [r.runs for r in rebuilt.results] == [r.runs for r in report.results]
    assert rebuilt.summary.repeat_stats == report.summary.repeat_stats
