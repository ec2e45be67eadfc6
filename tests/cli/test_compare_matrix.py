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


def test_a_selection_among_three_reports_is_marked_its_missing_cases_not_run(
    tmp_path: Path, in_process: InProcess
) -> None:
    from tests.browsing.history.samples import write_run

    ids = [f"c{i}" for i in range(10)]
    folder = tmp_path / "reports"
    a = write_run(folder, 0, dict(zip(ids, "PPPPPPPFFF", strict=True)))
    b = write_run(folder, 1, dict(zip(ids, "PPPPPPFPFF", strict=True)))
    rerun = {"selection": {"by": "rerun_failed", "cases": 3, "of": 10}}
    c = write_run(folder, 2, {"c7": "P", "c8": "P", "c9": "P"}, metadata=rerun)
    done = in_process(tmp_path, "compare", str(a), str(b), str(c))
    line = next(x for x in done.stdout.splitlines() if "weather_0002: 3/3 passed" in x)
    assert line.endswith("(selection: rerun failed, 3 of 10 cases; 7 not run)")
    assert (
        "weather_0000 vs weather_0002" in done.stdout
        or "weather_0002 vs weather_0000" in done.stdout
    )
    pair = next(
        x for x in done.stdout.splitlines() if "weather_0000" in x and "vs" in x and "0002" in x
    )
    assert "over the 3 case(s) both ran" in pair and "100.0 pts" in pair  # 0/3 against 3/3
    assert "weather/c6: not run  pass  FAIL" in done.stdout  # before: "-", as if removed
    assert "is a selection of its eval set's cases (rerun failed, 3 of 10 cases)" in done.stderr
    matrix = json.loads(in_process(tmp_path, "compare", str(a), str(b), str(c), "--json").stdout)
    by_name = {v["name"]: v for v in matrix["variants"]}
    assert by_name["weather_0002"]["selection"] == "rerun failed, 3 of 10 cases"
    assert by_name["weather_0002"]["not_run"] == 7
    assert "selection" not in by_name["weather_0000"] and "not_run" not in by_name["weather_0000"]
    pairs = {frozenset((p["a"], p["b"])): p for p in matrix["pairs"]}
    with_rerun = pairs[frozenset(("weather_0000", "weather_0002"))]
    assert with_rerun["cases"] == 3  # before: 7/10 against 3/3, each over its own cases
    assert {with_rerun["pass_rate_a"], with_rerun["pass_rate_b"]} == {0.0, 1.0}
    assert "cases" not in pairs[frozenset(("weather_0000", "weather_0001"))]
