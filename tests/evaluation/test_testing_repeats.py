"""The pytest helpers with repeats: run_eval(repeats=...) and eval_test(repeats=...)."""

from __future__ import annotations

import pytest

from tenxeval_tui.evaluation import create_eval_app, run_eval
from tenxeval_tui.evaluation.testing import with_repeats

from .coin_agent import EXACT, CoinAgent, coin_set
from .conftest import config_with
from .test_testing import make_tests, run, suite  # noqa: F401  (suite is a fixture)


async def test_run_eval_runs_each_case_the_given_number_of_times(tmp_path) -> None:
    path = tmp_path / "coins.evalset.json"
    coin_set(4).to_file(path)
    agent = CoinAgent(0.5, seed=17)
    app, collector = create_eval_app(agent)
    # In-process: the agent's calls are counted in this process (isolated, they stay in
    # the child).
    report = await run_eval(
        app, collector, str(path), config_with(EXACT), repeats=3, pass_rule=0.5, isolate=False
    )
    assert agent.calls == {f"question {i}": 3 for i in range(4)}
    for index, result in enumerate(report.results):
        outcomes = agent.expected(f"question {index}", 3)
        assert result.passed == (sum(outcomes) >= 2)
    assert report.config_used["repeats"] == 3 and report.config_used["pass_rule"] == 0.5


def test_with_repeats_validates_and_leaves_the_config_alone() -> None:
    base = config_with(EXACT)
    assert with_repeats(base) is base
    changed = with_repeats(base, 4)
    assert (changed.repeats, base.repeats) == (4, 1)
    with pytest.raises(ValueError, match="repeats"):
        with_repeats(base, 0)


def test_eval_test_with_repeats_lists_the_runs_of_failed_cases(
    suite: pytest.Pytester,  # noqa: F811
) -> None:
    make_tests(
        suite,
        """
        @eval_test("eval/plain_agent.evalset.json", threshold=0.7, repeats=3)
        async def test_plain_three_times():
            return create_eval_app(support_agent)
        """,
    )
    result = run(suite)
    result.assert_outcomes(passed=1)
    make_tests(
        suite,
        """
        @eval_test("eval/plain_agent.evalset.json", repeats=3)
        async def test_plain_must_all_pass():
            return create_eval_app(support_agent)
        """,
    )
    result = run(suite)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*- wrong_status (*) ?0/3 runs passed?: response_match_score*"])
