"""Flakiness: where two runs of a case diverge, and cases ranked over a history of runs."""

from __future__ import annotations

from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, Trace, create_eval_app
from tenxeval_tui.evaluation.analysis.compare import RunOutcome
from tenxeval_tui.evaluation.analysis.flakiness import case_histories, first_divergence

from ..coin_agent import EXACT, CoinAgent, coin_set
from ..conftest import config_with


async def test_the_first_differing_step_of_two_repeats() -> None:
    seen: dict[str, int] = {}

    async def wavering(message: str, trace: Trace) -> str:
        n = seen[message] = seen.get(message, 0) + 1
        trace.node("ROUTER")
        trace.record_tool("lookup", {"id": "A1"}, "ok")
        # the second run looks up another id, then answers differently
        trace.record_tool("lookup", {"id": "A1" if n == 1 else "B2"}, "ok")
        trace.node("ANSWER", response=f"answer {n}")
        return f"answer {n}"

    app, collector = create_eval_app(wavering)
    config = config_with(EXACT, repeats=2, max_concurrency=1)
    report = await AgentEvaluator(app, collector, config).evaluate(coin_set(1))
    one, two = report.results[0].runs
    divergence = first_divergence(one, two)
    assert divergence.step == 2 and divergence.diverged
    assert divergence.left is not None and divergence.left.args == {"id": "A1"}
    assert divergence.right is not None and divergence.right.args == {"id": "B2"}
    assert divergence.replies_differ
    same = first_divergence(one, one)
    assert same.step is None and not same.diverged
    shorter = one.model_copy(update={"actual_trajectory": one.actual_trajectory[:2]})
    assert first_divergence(shorter, one).step == 2
    assert first_divergence(shorter, one).left is None


async def run(agent: CoinAgent, repeats: int = 1) -> EvalReport:
    app, collector = create_eval_app(agent)
    config = config_with(EXACT, repeats=repeats, max_concurrency=1)
    return await AgentEvaluator(app, collector, config).evaluate(coin_set(3))


async def test_cases_ranked_by_how_often_they_flip_over_a_history() -> None:
    # q0 always passes, q1 alternates, q2 fails at first then passes from run 3 on
    chances = [
        {"question 1": 1.0, "question 2": 0.0},
        {"question 1": 0.0, "question 2": 0.0},
        {"question 1": 1.0, "question 2": 1.0},
        {"question 1": 0.0, "question 2": 1.0},
    ]
    reports = [await run(CoinAgent(1.0, chance)) for chance in chances]
    histories = case_histories([RunOutcome.of_report(r) for r in reports])
    assert [h.eval_id for h in histories] == ["q1", "q2", "q0"]
    q1, q2, q0 = histories
    assert q1.outcomes == [True, False, True, False] and q1.flips == 3 and q1.flip_rate == 1.0
    assert q2.flips == 1 and q2.trend == 1.0 and q2.is_flaky
    assert q0.flips == 0 and not q0.is_flaky and q0.pass_rate == 1.0
    last_two = case_histories([RunOutcome.of_report(r) for r in reports], last=2)
    assert next(h for h in last_two if h.eval_id == "q2").outcomes == [True, True]


async def test_repeats_count_in_the_pass_rate_of_a_history() -> None:
    agent = CoinAgent(0.5, seed=3)
    report = await run(agent, repeats=4)
    [history] = [h for h in case_histories([RunOutcome.of_report(report)]) if h.eval_id == "q0"]
    assert (history.passes, history.total) == (sum(agent.expected("question 0", 4)), 4)
    assert history.runs == 1


def test_sample_disagreement_reads_the_judges_votes() -> None:
    from tenxeval_tui.evaluation import CriterionResult
    from tenxeval_tui.evaluation.analysis.flakiness import sample_disagreement

    def judged(votes: object) -> CriterionResult:
        return CriterionResult.success("rubric", 0.5, 0.5, details={"votes": votes})

    assert sample_disagreement(judged({"clear": "3/5", "polite": "5/5"})) == 0.5
    assert sample_disagreement(judged({"clear": "0/3", "polite": "3/3"})) == 0.0
    assert sample_disagreement(judged({"clear": "1/1"})) is None  # one sample
    assert sample_disagreement(judged("garbled")) is None
    assert sample_disagreement(CriterionResult.success("exact_match", 1.0, 1.0)) is None
