"""Noise-aware comparison: with repeats, only a significant pass-rate drop is a regression."""

from __future__ import annotations

import json

import pytest

from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, create_eval_app
from tenxeval_tui.evaluation.analysis.compare import (
    CaseChange,
    RunOutcome,
    compare_reports,
    pool_runs,
)

from ..coin_agent import EXACT, CoinAgent, coin_set
from ..conftest import config_with

# q0 breaks for real (never passes now); q1 got a little worse (passes 3 times in 4);
# q2 is as good as ever. Seed 2 gives q1 four passes of five (its first run fails).
CURRENT = {"question 0": 0.0, "question 1": 0.75}
SEED = 2


async def run(agent: CoinAgent, repeats: int) -> EvalReport:
    app, collector = create_eval_app(agent)
    config = config_with(EXACT, repeats=repeats, max_concurrency=1)
    return await AgentEvaluator(app, collector, config).evaluate(coin_set(3))


async def test_a_real_regression_is_flagged_and_a_noise_flip_is_not() -> None:
    agent = CoinAgent(1.0, CURRENT, seed=SEED)
    assert sum(agent.expected("question 1", 5)) == 4  # the premise of this test
    baseline = await run(CoinAgent(1.0), 5)
    current = await run(agent, 5)

    comparison = compare_reports(baseline, current)
    by_id = {c.eval_id: c for c in comparison.cases}
    assert by_id["q0"].change == CaseChange.REGRESSED
    assert by_id["q0"].p_value == pytest.approx(1 / 252)  # 5/5 -> 0/5
    assert (by_id["q0"].baseline_passes, by_id["q0"].current_passes) == (5, 0)
    # 5/5 -> 4/5: the status flipped (all repeats must pass) but that is noise
    q1 = by_id["q1"]
    assert (q1.baseline_status, q1.current_status) == ("passed", "failed")
    assert q1.change == CaseChange.UNCHANGED and q1.noise_flip
    assert q1.p_value == pytest.approx(0.5)  # C(5,5)C(5,4)/C(10,9)
    assert by_id["q2"].change == CaseChange.UNCHANGED and not by_id["q2"].noise_flip
    assert [c.eval_id for c in comparison.regressed] == ["q0"]
    assert comparison.significance == "Fisher's exact test, one-sided, alpha 0.05"
    text = comparison.format_summary()
    assert "5/5 -> 0/5 runs passed" in text and "Flipped within noise" in text

    strict = compare_reports(baseline, current, strict=True)
    assert sorted(c.eval_id for c in strict.regressed) == ["q0", "q1"]
    assert strict.significance is None


async def test_without_repeats_every_flip_counts_as_before() -> None:
    agent = CoinAgent(1.0, CURRENT, seed=SEED)
    assert agent.expected("question 1", 1) == [False]
    comparison = compare_reports(await run(CoinAgent(1.0), 1), await run(agent, 1))
    assert sorted(c.eval_id for c in comparison.regressed) == ["q0", "q1"]
    data = json.loads(comparison.model_dump_json())
    assert "significance" not in data
    assert all("p_value" not in case and "noise_flip" not in case for case in data["cases"])


async def test_a_significant_rise_is_fixed() -> None:
    broken = await run(CoinAgent(0.0), 5)
    mended = await run(CoinAgent(1.0, {"question 2": 0.0}), 5)
    comparison = compare_reports(broken, mended)
    assert sorted(c.eval_id for c in comparison.fixed) == ["q0", "q1"]
    assert [c.eval_id for c in comparison.still_failing] == ["q2"]


async def test_a_history_of_single_runs_is_pooled_into_a_baseline() -> None:
    history = [await run(CoinAgent(1.0), 1) for _ in range(5)]
    once = await run(CoinAgent(1.0, {"question 0": 0.0}), 1)
    # five passes against one failure: could be chance (p = 1/6)
    pooled = compare_reports(history, once)
    q0 = next(c for c in pooled.cases if c.eval_id == "q0")
    assert (q0.baseline_passes, q0.baseline_runs) == (5, 5)
    assert q0.change == CaseChange.UNCHANGED and q0.noise_flip
    assert q0.p_value == pytest.approx(1 / 6)
    # five failures of five now: not chance
    repeated = await run(CoinAgent(1.0, {"question 0": 0.0}), 5)
    assert [c.eval_id for c in compare_reports(history, repeated).regressed] == ["q0"]
    # one baseline report alone is compared exactly as before
    single = pool_runs([RunOutcome.of_report(history[0])])
    assert all(c.runs == 1 for c in single.cases)
    assert [c.eval_id for c in compare_reports(history[:1], once).regressed] == ["q0"]
