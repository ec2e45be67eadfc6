"""A report's provenance and its cases' hashes, from an in-process run, the journal and
combined reports; reports without them still load."""

from __future__ import annotations

import json
from pathlib import Path

from sample_evals.plain_agent import support_agent
from tenxeval_tui.evaluation import AgentEvaluator, EvalReport, EvalSet, wrap_agent
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, STOPPED_KEY
from tenxeval_tui.evaluation.provenance import (
    CASE_SHA256_KEY,
    PROVENANCE_KEY,
    agent_code,
    case_fingerprint,
    case_sha256,
    combined_provenance,
    config_sha256,
    eval_set_sha256,
    result_fingerprint,
)
from tenxeval_tui.evaluation.rescore import rescore_report
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs
from tests.evaluation.conftest import config_with

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "sample_evals/plain_agent.evalset.json"


async def test_an_in_process_run_records_where_it_came_from() -> None:
    app, collector = wrap_agent(support_agent)
    config = config_with({"tool_name_match": {}}, repeats=2)
    report = await AgentEvaluator(app, collector, config).evaluate(SAMPLE)
    provenance = report.metadata[PROVENANCE_KEY]
    eval_set = EvalSet.from_file(SAMPLE)
    assert provenance["eval_set_sha256"] == eval_set_sha256(eval_set)
    assert provenance["config_sha256"] == config_sha256(config)
    assert provenance["agent_module"] == "sample_evals.plain_agent"
    code = agent_code("sample_evals.plain_agent")
    assert code is not None and provenance["agent_sha256"] == code.sha256
    assert len(provenance["git_commit"] or "0" * 40) == 40  # this checkout's, if in git
    assert provenance["versions"]["tenxeval-tui"]
    assert provenance["judge_models"] == {}
    hashes = {case.eval_id: case_sha256(case) for case in eval_set.eval_cases}
    first = report.results[0]
    fingerprint = result_fingerprint(provenance, first.metadata[CASE_SHA256_KEY])
    assert fingerprint == case_fingerprint(
        hashes[first.eval_id], code.sha256, config_sha256(config), {}
    )
    assert result_fingerprint({}, first.metadata[CASE_SHA256_KEY]) is None
    for result in report.results:
        assert result.metadata[CASE_SHA256_KEY] == hashes[result.eval_id]
        assert {r.metadata[CASE_SHA256_KEY] for r in result.runs} == {hashes[result.eval_id]}


async def test_a_graph_in_process_has_no_agent_hash_until_its_module_is_named() -> None:
    from sample_evals.weather_graph import build_graph
    from tenxeval_tui.evaluation import create_eval_app

    app, collector = create_eval_app(build_graph())
    evaluator = AgentEvaluator(app, collector, config_with({"tool_name_match": {}}))
    path = ROOT / "sample_evals/weather_graph.evalset.json"
    assert (await evaluator.evaluate(path)).metadata[PROVENANCE_KEY]["agent_sha256"] is None
    evaluator.agent_module = "sample_evals.weather_graph"
    provenance = (await evaluator.evaluate(path)).metadata[PROVENANCE_KEY]
    code = agent_code("sample_evals.weather_graph")
    assert code is not None and provenance["agent_sha256"] == code.sha256
    assert "10xgraph" in provenance["versions"]  # the agent's framework


def test_the_journal_keeps_what_is_known_at_the_start(tmp_path: Path) -> None:
    eval_set = EvalSet.from_file(SAMPLE)
    journal = RunJournal(tmp_path / "j.jsonl", {eval_set.eval_set_id: {PROVENANCE_KEY: {"x": 1}}})
    journal.on_run_start(eval_set, eval_set.eval_cases[:1])
    (killed,) = read_journal_runs(journal.path)  # no run_end: a killed run
    assert killed.metadata == {PROVENANCE_KEY: {"x": 1}, PARTIAL_KEY: True}
    stopped = EvalReport.create(eval_set.eval_set_id, [], metadata={STOPPED_KEY: "max_cost"})
    journal.on_run_end(stopped)
    (ended,) = read_journal_runs(journal.path)
    assert ended.metadata == {PROVENANCE_KEY: {"x": 1}, STOPPED_KEY: "max_cost"}


def test_combined_reports_combine_provenance() -> None:
    a = {"git_commit": "c1", "git_dirty": False, "eval_set_sha256": "e1", "agent_sha256": "a1",
         "versions": {"python": "3.12"}, "judge_models": {"x": "m1"}}  # fmt: skip
    b = {"git_commit": "c1", "git_dirty": True, "eval_set_sha256": "e2", "agent_sha256": "a1",
         "versions": {"10xgraph": "0.10"}, "judge_models": {}}  # fmt: skip
    combined = combined_provenance([a, b])
    assert combined["git_commit"] == "c1" and combined["agent_sha256"] == "a1"
    assert combined["git_dirty"] is True
    assert (
        combined["eval_set_sha256"] not in ("e1", "e2") and len(combined["eval_set_sha256"]) == 64
    )
    assert combined["versions"] == {"python": "3.12", "10xgraph": "0.10"}
    assert combined_provenance([{}, {}]) == {}
    reports = [
        EvalReport.create("a", [], metadata={PROVENANCE_KEY: a}),
        EvalReport.create("b", [], metadata={PROVENANCE_KEY: b}),
    ]
    assert EvalReport.combine(reports).metadata[PROVENANCE_KEY] == combined
    plain = EvalReport.combine([EvalReport.create("a", []), EvalReport.create("b", [])])
    assert PROVENANCE_KEY not in plain.metadata


def test_a_report_without_provenance_loads_as_before(tmp_path: Path) -> None:
    old = {"eval_set_id": "old", "results": [{"eval_id": "x", "passed": True}], "summary": {}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    report = EvalReport.from_file(path)
    assert report.metadata == {} and report.results[0].metadata == {}


async def test_a_rescored_report_keeps_the_runs_provenance_with_its_own_config() -> None:
    app, collector = wrap_agent(support_agent)
    config = config_with({"response_match_score": {"threshold": 0.8}})
    report = await AgentEvaluator(app, collector, config).evaluate(SAMPLE)
    stricter = config_with({"response_match_score": {"threshold": 0.95}})
    rescored = await rescore_report(report, stricter)
    before, after = report.metadata[PROVENANCE_KEY], rescored.metadata[PROVENANCE_KEY]
    assert after["config_sha256"] == config_sha256(stricter) != before["config_sha256"]
    assert {k: v for k, v in after.items() if k != "config_sha256"} == {
        k: v for k, v in before.items() if k != "config_sha256"
    }
    assert [r.metadata[CASE_SHA256_KEY] for r in rescored.results] == [
        r.metadata[CASE_SHA256_KEY] for r in report.results
    ]
