"""`tenxeval-tui compare` with several reports: the variant matrix, in-process through the
console script's entry point (``in_process``; test_compare_command.py takes `compare`
through the real script), over real runs of agents whose pass rates are known (0.9, 0.5,
0.5), made once for the module."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import AgentEvaluator, EvalConfig, create_eval_app
from tests.cli.conftest import InProcess
from tests.evaluation.rate_agents import EXACT, rate_agent, rate_set


@pytest.fixture(scope="module")
def report_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    config = EvalConfig.model_validate({"criteria": EXACT, "reporter": {"enabled": False}})

    async def one(rate: float, offset: int) -> str:
        app, collector = create_eval_app(rate_agent(rate, offset))
        report = await AgentEvaluator(app, collector, config).evaluate(rate_set())
        return report.model_dump_json()

    for name, rate, offset in (("strong", 0.9, 0), ("half-a", 0.5, 0), ("half-b", 0.5, 20)):
        text = asyncio.run(one(rate, offset))
        if name == "half-b":  # a variant run's report names its variant
            data = json.loads(text)
            data["metadata"]["variant"] = "B"
            text = json.dumps(data)
        (folder / f"{name}.json").write_text(text)
    return folder


def test_three_reports_print_the_matrix_and_exit_1_when_one_is_worse(
    report_files: Path, in_process: InProcess
) -> None:
    done = in_process(report_files, "compare", "strong.json", "half-a.json", "half-b.json")
    assert done.returncode == 1, done.stderr
    assert "Variants (3), ranked by pass rate:" in done.stdout
    assert "1. strong: 36/40 passed" in done.stdout
    assert "Baseline strong: significantly worse: " in done.stdout
    assert "half-a vs B: +0.0 pts" in done.stdout or "B vs half-a: +0.0 pts" in done.stdout
    assert "no significant difference" in done.stdout


def test_no_report_significantly_worse_than_the_first_exits_0(
    report_files: Path, in_process: InProcess
) -> None:
    done = in_process(
        report_files, "compare", "half-a.json", "half-b.json", "strong.json", "--json"
    )
    assert done.returncode == 0, done.stderr
    matrix = json.loads(done.stdout)
    assert [v["name"] for v in matrix["variants"]] == ["strong", "B", "half-a"]
    assert len(matrix["pairs"]) == 3


def test_two_reports_with_matrix_and_an_unreadable_one(
    report_files: Path, in_process: InProcess
) -> None:
    done = in_process(report_files, "compare", "--matrix", "strong.json", "half-a.json")
    assert done.returncode == 1 and "strong vs half-a" in done.stdout
    missing = in_process(report_files, "compare", "strong.json", "half-a.json", "nope.json")
    assert missing.returncode == 2 and "nope.json" in missing.stderr
