"""The variant matrix over real runs of plain agents whose pass rates are known exactly:
0.9, 0.5 and 0.5 (the two halves apart) over 40 cases, each run 3 times."""

from __future__ import annotations

import pytest

from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, create_eval_app
from tenxeval_tui.evaluation.analysis.matrix import (
    build_matrix,
    holm,
    pareto_line,
    percentile,
    two_sided_fisher,
    variant_stats,
)
from tenxeval_tui.evaluation.stats import fisher_one_sided

from ..conftest import config_with
from ..rate_agents import CASES, EXACT, PRICE_PER_TOKEN, PRICES, rate_agent, rate_set

REPEATS = 3


async def run(rate: float, offset: int = 0, tokens: int = 1000) -> EvalReport:
    app, collector = create_eval_app(rate_agent(rate, offset, tokens))
    config = config_with(
        EXACT, repeats=REPEATS, max_concurrency=4, prices=PRICES, agent_model="rate-model"
    )
    return await AgentEvaluator(app, collector, config).evaluate(rate_set())


@pytest.fixture(scope="module")
def reports() -> dict[str, EvalReport]:
    import asyncio

    async def all_three() -> dict[str, EvalReport]:
        return {
            "half-a": await run(0.5, 0, tokens=1000),
            "strong": await run(0.9, 0, tokens=3000),
            "half-b": await run(0.5, 20, tokens=500),
        }

    return asyncio.run(all_three())


def test_the_matrix_ranks_the_variants_by_pass_rate(reports: dict[str, EvalReport]) -> None:
    matrix = build_matrix(reports)
    strong, half_a = matrix.variant("strong"), matrix.variant("half-a")
    assert (strong.passed, strong.total) == (36, CASES)
    assert (half_a.passed, half_a.total) == (20, CASES)
    # Equal pass rates: the cheaper per success ranks first.
    assert matrix.names == ["strong", "half-b", "half-a"]
    assert strong.pass_rate_low < 0.9 < strong.pass_rate_high


def test_a_real_difference_is_significant_and_equal_rates_are_not(
    reports: dict[str, EvalReport],
) -> None:
    matrix = build_matrix(reports)
    assert matrix.pair("strong", "half-a").significant
    assert matrix.pair("half-b", "strong").better == "strong"
    equal = matrix.pair("half-a", "half-b")
    assert not equal.significant and equal.better is None
    assert equal.p_value == 1.0
    assert sorted(matrix.worse_than("strong")) == ["half-a", "half-b"]
    assert matrix.worse_than("half-a") == []


def test_cost_per_success_is_exact(reports: dict[str, EvalReport]) -> None:
    matrix = build_matrix(reports)
    strong = matrix.variant("strong")
    # Every run of every case costs its tokens at the price, retries and repeats counted.
    spent = CASES * REPEATS * 3000 * PRICE_PER_TOKEN
    assert strong.cost_usd == pytest.approx(spent, rel=1e-12)
    assert strong.cost_per_success == pytest.approx(spent / 36, rel=1e-12)
    assert matrix.variant("half-b").cost_per_success == pytest.approx(
        CASES * REPEATS * 500 * PRICE_PER_TOKEN / 20, rel=1e-12
    )


def test_the_separating_cases_are_those_the_variants_disagree_on(
    reports: dict[str, EvalReport],
) -> None:
    matrix = build_matrix(reports)
    # half-a passes c0..c19, half-b c20..c39, strong c0..c35: every case separates.
    assert len(matrix.separating) == CASES
    row = next(r for r in matrix.rows if r.eval_id == "c25")
    assert row.cells["half-a"].status == "failed"
    assert (row.cells["half-b"].passes, row.cells["half-b"].runs) == (REPEATS, REPEATS)
    two = {"strong": reports["strong"], "half-a": reports["half-a"]}
    separating = build_matrix(two).separating
    assert [r.eval_id for r in separating] == [f"c{i}" for i in range(20, 36)]


def test_the_pareto_line_keeps_what_no_other_beats_on_quality_and_cost(
    reports: dict[str, EvalReport],
) -> None:
    matrix = build_matrix(reports)
    # half-b is cheapest; strong is best; half-a costs more than half-b for the same rate.
    assert matrix.pareto == ["half-b", "strong"]
    free = variant_stats("free", reports["half-a"]).model_copy(update={"cost_usd": None})
    assert pareto_line([free, matrix.variant("half-b")]) == ["free"]


def test_holm_steps_down_and_never_lowers_a_p_value() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]
    assert holm([]) == []


def test_the_two_sided_test_doubles_the_smaller_tail() -> None:
    one = fisher_one_sided(36, 40, 20, 40)
    assert two_sided_fisher(36, 40, 20, 40) == pytest.approx(2 * one)
    assert two_sided_fisher(20, 40, 36, 40) == pytest.approx(2 * one)
    assert two_sided_fisher(5, 10, 5, 10) == 1.0


def test_latency_percentile_is_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]
    assert percentile(values, 0.95) == 19.0
    assert percentile(values, 0.5) == 10.0
    assert percentile([], 0.95) is None


def test_a_selection_column_of_the_html_page_says_so_and_its_missing_cells_not_run() -> None:
    from tenxeval_tui.evaluation import EvalCaseResult
    from tenxeval_tui.evaluation.reporters.matrix_html import render_matrix_html

    def report(ids: str, metadata: dict[str, object] | None = None) -> EvalReport:
        results = [EvalCaseResult.failure(i, "down") for i in ids]
        return EvalReport.create("weather", results, metadata=metadata or {})

    rerun = {"selection": {"by": "rerun_failed", "cases": 1, "of": 3}}
    page = render_matrix_html(build_matrix({"full": report("abc"), "rerun": report("c", rerun)}))
    assert "rerun (selection)</th>" in page and "full (selection)" not in page
    assert "selection: rerun failed, 1 of 3 cases; 2 not run" in page
    assert page.count('<td class="missing">not run</td>') == 2
    assert "(over the 1 case(s) both ran)" in page
