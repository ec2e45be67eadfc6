"""Reporters on a run with repeats: the rate per case and per run, the pass rule in JUnit."""

from __future__ import annotations

from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    ConsoleReporter,
    EvalReport,
    HTMLReporter,
    create_eval_app,
)
from tests.evaluation.coin_agent import EXACT, CoinAgent, coin_set
from tests.evaluation.conftest import config_with

from .test_html import embedded_cases
from .test_junit import case_properties, write


async def repeated_report(pass_rule: str | float = "all") -> tuple[EvalReport, CoinAgent]:
    agent = CoinAgent(0.6, seed=13)
    app, collector = create_eval_app(agent)
    config = config_with(EXACT, repeats=5, pass_rule=pass_rule, max_concurrency=1)
    return await AgentEvaluator(app, collector, config).evaluate(coin_set(8)), agent


async def test_console_shows_each_case_rate_and_the_runs_interval() -> None:
    report, agent = await repeated_report()
    text = ConsoleReporter(verbose=True, width=160).render(report)
    rs = report.summary.repeat_stats
    assert rs is not None
    assert f"repeats: {rs.passed_repeats}/{rs.total_repeats} runs passed" in text
    assert f"{rs.pass_rate_low:.1%} to {rs.pass_rate_high:.1%}" in text
    for index in range(8):
        passed = sum(agent.expected(f"question {index}", 5))
        line = next(line for line in text.splitlines() if f" q{index} " in f"{line} ")
        assert f"{passed}/5 runs passed" in line


@pytest.mark.parametrize("rule", ["all", 0.6])
async def test_junit_fails_a_case_by_the_pass_rule_and_carries_its_rate(
    rule: str | float, tmp_path: Path
) -> None:
    report, agent = await repeated_report(rule)
    suite = next(iter(JUnitXml.fromfile(str(write(report, tmp_path)))))
    failures = 0
    for case in suite:
        index = int(case.name.removeprefix("q"))
        outcomes = agent.expected(f"question {index}", 5)
        passes = sum(outcomes)
        ok = passes == 5 if rule == "all" else passes >= 3
        props = case_properties(case)
        assert props["pass_rate"] == f"{passes / 5:.4f}"
        assert props["repeats"] == "5" and props["passed_repeats"] == str(passes)
        if ok:
            assert case.is_passed
        else:
            failures += 1
            [failure] = case.result
            assert isinstance(failure, Failure)
            assert failure.message.startswith(f"{passes}/5 runs passed (pass rule {rule})")
    assert suite.failures == failures == report.summary.failed_cases
    suite_props = {p.name: p.value for p in suite.properties()}
    assert suite_props["flaky_cases"] == str(report.summary.repeat_stats.flaky_cases)


async def test_html_shows_the_runs_of_each_case() -> None:
    report, agent = await repeated_report()
    html = HTMLReporter().render(report)
    rs = report.summary.repeat_stats
    assert f'id="runs-passed">{rs.passed_repeats}/{rs.total_repeats}<' in html
    cases = embedded_cases(html)
    for index, case in enumerate(cases):
        runs = case["runs"]
        outcomes = agent.expected(f"question {index}", 5)
        assert (runs["passed"], runs["total"]) == (sum(outcomes), 5)
        assert [r["status"] == "passed" for r in runs["each"]] == outcomes
        assert [r["n"] for r in runs["each"]] == [1, 2, 3, 4, 5]
    once, _ = await run_once()
    assert all("runs" not in c for c in embedded_cases(HTMLReporter().render(once)))
    assert 'id="runs-passed"' not in HTMLReporter().render(once)


async def run_once() -> tuple[EvalReport, CoinAgent]:
    agent = CoinAgent(0.6, seed=13)
    app, collector = create_eval_app(agent)
    return await AgentEvaluator(app, collector, config_with(EXACT)).evaluate(coin_set(3)), agent


async def test_csv_and_jsonl_rows_carry_each_case_runs() -> None:
    import csv
    import io
    import json

    from tenxeval_tui.evaluation.reporters.csv import CsvReporter
    from tenxeval_tui.evaluation.reporters.jsonl import JsonlReporter

    report, agent = await repeated_report()
    rows = list(csv.DictReader(io.StringIO(CsvReporter().render(report))))
    lines = [json.loads(line) for line in JsonlReporter().render(report).splitlines()]
    assert len(rows) == len(lines) == 8  # one criterion per case
    for index, (row, line) in enumerate(zip(rows, lines, strict=True)):
        passed = sum(agent.expected(f"question {index}", 5))
        assert (row["repeats"], row["passed_repeats"]) == ("5", str(passed))
        assert float(row["case_pass_rate"]) == passed / 5
        assert (line["repeats"], line["passed_repeats"]) == (5, passed)
    once, _ = await run_once()
    header = CsvReporter().render(once).splitlines()[0]
    assert "repeats" not in header
    assert "repeats" not in JsonlReporter().render(once)
