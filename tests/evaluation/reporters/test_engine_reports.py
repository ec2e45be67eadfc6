"""Reports of real runs: both offline sample agents through the real evaluator, every format."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import xmlschema

from tenxeval_tui.evaluation import (
    AgentEvaluator,
    CriterionConfig,
    EvalConfig,
    EvalReport,
    EvalSet,
    ReporterConfig,
    ReporterManager,
    create_eval_app,
    load_target,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = [
    ("sample_evals.weather_graph:build_graph", "weather_graph.evalset.json"),
    ("sample_evals.plain_agent:support_agent", "plain_agent.evalset.json"),
]
SCHEMA = xmlschema.XMLSchema(Path(__file__).with_name("junit.xsd"))


async def run_sample(agent: str, file: str) -> tuple[EvalSet, EvalReport]:
    eval_set = EvalSet.from_file(ROOT / "sample_evals" / file)
    config = EvalConfig.default()
    config.reporter.enabled = False
    config.enable_criterion("node_order", CriterionConfig.node_order())
    app, collector = create_eval_app(load_target(agent))
    return eval_set, await AgentEvaluator(app, collector, config).evaluate(eval_set)


async def test_every_report_of_a_real_combined_run(tmp_path, capsys, browser):
    runs = [await run_sample(agent, file) for agent, file in SAMPLES]
    combined = EvalReport.combine([report for _, report in runs])
    set_ids = [eval_set.eval_set_id for eval_set, _ in runs]
    config = ReporterConfig(junit_xml=True, verbose=False)
    out = ReporterManager(config).run_all(combined, output_dir=tmp_path)
    assert not out.has_errors, out.errors
    assert Path(out.json_path or "").name.startswith("combined_eval_")

    # console: the summary and every case that did not pass
    printed = capsys.readouterr().out
    not_passed = [r for r in combined.results if not r.passed]
    assert not_passed and all((r.name or r.eval_id) in printed for r in not_passed)

    # JSON: loads back as the same report
    assert EvalReport.from_file(out.json_path or "") == combined

    # JUnit: valid, one suite per sample eval set, an <error> for each raising case
    SCHEMA.validate(out.junit_path)
    root = ET.parse(out.junit_path or "").getroot()
    assert [s.get("name") for s in root.findall("testsuite")] == set_ids
    errors = [c.get("name") for c in root.iter("testcase") if c.find("error") is not None]
    assert sorted(errors) == sorted(r.name or r.eval_id for r in combined.results if r.is_error)
    for case in root.iter("testcase"):
        assert not (case.find("error") is not None and case.find("failure") is not None)

    # HTML: real run in a real browser; multi-turn case shows every turn
    browser.events.clear()
    browser.open(Path(out.html_path or ""))
    assert browser.evaluate("document.querySelectorAll('details.case').length") == len(
        combined.results
    )
    multi = next(i for i, r in enumerate(combined.results) if len(r.turn_results) > 1)
    browser.click(f'details.case[data-i="{multi}"] > summary')
    browser.wait_for_js(
        f"document.querySelector('details.case[data-i=\"{multi}\"] .body')", "the case's detail"
    )
    text = browser.evaluate(
        f"document.querySelector('details.case[data-i=\"{multi}\"] .body').innerText"
    )
    assert f"CONVERSATION ({len(combined.results[multi].turn_results)} TURNS)" in text
    for turn in combined.results[multi].turn_results:
        assert turn["user_content"] in text
    browser.click("#failed-only")
    browser.wait_for_filter(failed_only=True)
    shown = browser.evaluate(
        "Array.from(document.querySelectorAll('details.case')).filter(d => !d.hidden).length"
    )
    assert shown == len(not_passed)
    assert browser.problems() == []
    data = json.loads(Path(out.json_path or "").read_text())
    assert data["eval_set_id"] == "combined_eval"
