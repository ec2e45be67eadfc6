"""JSONReporter: 10xGraph's report keys, the include_* switches, and loading back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalReport, JSONReporter, ReporterConfig, ReporterManager

from .reports import XSS_RESPONSE, mixed_report, weather_case

FLAGS = [
    "include_details",
    "include_trajectory",
    "include_node_responses",
    "include_actual_response",
    "include_tool_call_details",
]


def dump(report: EvalReport, **flags: bool) -> dict:
    return json.loads(JSONReporter(**flags).render(report))


def test_documented_structure_and_10xgraph_keys():
    data = dump(mixed_report())
    assert data["eval_set_id"] == "weather-agent"
    assert data["eval_set_name"] == "Weather Agent"
    summary = data["summary"]
    assert (summary["total_cases"], summary["passed_cases"]) == (4, 2)
    assert (summary["failed_cases"], summary["error_cases"]) == (1, 1)
    assert summary["pass_rate"] == 0.5
    rouge = summary["criterion_stats"]["rouge_match"]
    assert set(rouge) >= {"total", "passed", "failed", "avg_score", "pass_rate"}
    assert (rouge["total"], rouge["passed"], rouge["failed"]) == (3, 2, 1)
    first = data["results"][0]
    assert first["eval_id"] == "london" and first["name"] == "London weather"
    assert first["passed"] is True
    assert isinstance(first["criterion_results"], list)
    rouge_result = first["criterion_results"][1]
    assert {k: rouge_result[k] for k in ("criterion", "score", "passed", "threshold")} == {
        "criterion": "rouge_match",
        "score": 0.9,
        "passed": True,
        "threshold": 0.5,
    }
    assert first["actual_response"] == "The weather in London is sunny and 21C."
    assert first["actual_tool_calls"][0]["name"] == "get_weather"
    assert first["actual_tool_calls"][0]["args"] == {"location": "London"}
    for key in ("actual_trajectory", "node_responses", "node_visits", "duration_seconds"):
        assert key in first
    assert data["results"][3]["error"].startswith("TimeoutError")


def test_keys_match_those_of_10xgraphs_own_reporter():
    """Every key 10xGraph writes for a report, summary and case is in ours."""
    from tenxgraph.qa.evaluation import EvalReport as TxReport
    from tenxgraph.qa.evaluation.reporters import JSONReporter as TxJSONReporter

    ours = mixed_report()
    theirs = TxReport.model_validate(json.loads(ours.model_dump_json()))
    their_data = json.loads(TxJSONReporter().to_json(theirs))
    our_data = dump(ours)
    assert set(their_data) <= set(our_data)
    assert set(their_data["summary"]) <= set(our_data["summary"])
    assert set(their_data["results"][0]) <= set(our_data["results"][0])
    assert set(their_data["results"][0]["criterion_results"][0]) <= set(
        our_data["results"][0]["criterion_results"][0]
    )
    # and 10xGraph loads our files, whatever the include_* switches
    for flags in ({}, dict.fromkeys(FLAGS, False)):
        loaded = TxReport.model_validate_json(JSONReporter(**flags).render(ours))
        assert [r.eval_id for r in loaded.results] == ["london", "paris", "tokyo", "broken"]


def test_writes_a_file_that_loads_back_identically(tmp_path):
    report = mixed_report()
    report.results[0].actual_response = XSS_RESPONSE
    path = JSONReporter().save(report, tmp_path / "r.json")
    loaded = EvalReport.from_file(path)
    assert loaded == report


@pytest.mark.parametrize("flag", FLAGS)
def test_every_switch_off_still_loads_with_from_file(tmp_path, flag):
    path = JSONReporter(**{flag: False}).save(mixed_report(), tmp_path / f"{flag}.json")
    loaded = EvalReport.from_file(path)
    assert len(loaded.results) == 4
    assert loaded.summary.criterion_stats["rouge_match"]["failed"] == 1


def test_all_switches_off_loads_through_the_manager(tmp_path):
    config = ReporterConfig(console=False, html=False, **dict.fromkeys(FLAGS, False))
    out = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    loaded = EvalReport.from_file(out.json_path or "")
    assert [r.eval_id for r in loaded.results] == ["london", "paris", "tokyo", "broken"]
    assert loaded.results[2].failed_criteria[0].criterion == "rouge_match"


def test_include_details_off_drops_criterion_details():
    on, off = dump(mixed_report()), dump(mixed_report(), include_details=False)
    assert on["results"][0]["criterion_results"][1]["details"]["reason"]
    assert all("details" not in cr for r in off["results"] for cr in r["criterion_results"])
    assert off["results"][0]["criterion_results"][1]["score"] == 0.9


def test_include_trajectory_off_drops_actual_trajectory():
    off = dump(mixed_report(), include_trajectory=False)
    assert all("actual_trajectory" not in r for r in off["results"])
    assert dump(mixed_report())["results"][0]["actual_trajectory"][1]["name"] == "get_weather"


def test_include_node_responses_off_drops_node_data():
    off = dump(mixed_report(), include_node_responses=False)
    assert all("node_responses" not in r and "node_details" not in r for r in off["results"])
    assert dump(mixed_report())["results"][0]["node_responses"][0]["node_name"] == "MAIN"


def test_include_actual_response_off_hides_the_response_everywhere():
    report = mixed_report()
    first_case = report.results[0]
    first_case.criterion_results[1].details["actual_response"] = first_case.actual_response
    first_case.node_responses.append(
        {
            "node_name": "MAIN",
            "input_messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": first_case.actual_response},
            ],
        }
    )
    first_case.turn_results.append({"user_content": "again?", "response": "is sunny and 21C"})
    assert "is sunny and 21C" in json.dumps(dump(report)["results"])
    off = dump(report, include_actual_response=False)
    text = json.dumps(off["results"])
    assert "is sunny and 21C" not in text
    assert all("actual_response" not in r for r in off["results"])
    first = off["results"][0]
    assert first["messages"] == [{"role": "user", "content": "What's the weather in London?"}]
    assert "agent_response" not in first["turn_results"][0]
    assert first["turn_results"][0]["user_input"] == "What's the weather in London?"
    assert first["turn_results"][1] == {"user_content": "again?"}


def test_include_tool_call_details_off_keeps_names_but_not_args_or_results():
    off = dump(mixed_report(), include_tool_call_details=False)
    call = off["results"][0]["actual_tool_calls"][0]
    assert call["name"] == "get_weather"
    assert "args" not in call and "result" not in call
    assert "args" not in off["results"][0]["turn_results"][0]["tool_calls"][0]
    assert "sunny, 21C" not in json.dumps(off)  # nor in criterion details
    details = off["results"][0]["criterion_results"][0]["details"]
    assert details["actual_trajectory"] == [{"name": "get_weather"}]


def test_include_tool_call_details_off_leaves_no_tool_data_anywhere():
    from tenxeval_tui.evaluation import EvalCaseResult, TrajectoryStep
    from tenxeval_tui.evaluation.eval_result import NodeDetail

    call = {"id": "c1", "function": {"name": "lookup", "arguments": '{"city": "SECRET-ARG"}'}}
    conversation = [
        {"role": "user", "content": "Where?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": "SECRET-RESULT", "tool_call_id": "c1"},
    ]
    step = TrajectoryStep(
        step_type="tool", name="lookup", args={"city": "SECRET-ARG"}, metadata={"result": 1}
    )
    case = EvalCaseResult(
        eval_id="a",
        passed=True,
        actual_trajectory=[step],
        messages=conversation,
        node_responses=[{"node_name": "MAIN", "input_messages": conversation}],
        node_details=[NodeDetail(node_name="MAIN", input_messages=conversation)],
    )
    text = json.dumps(dump(EvalReport.create("s", [case]), include_tool_call_details=False))
    assert "SECRET-ARG" not in text and "SECRET-RESULT" not in text
    assert '"lookup"' in text  # the names stay


def test_compact_indent_and_generate_without_folder_returns_text(tmp_path):
    text = JSONReporter(indent=None).render(mixed_report())
    assert "\n" not in text.strip()
    assert json.loads(JSONReporter().generate(mixed_report()) or "")["eval_set_id"]
    path = JSONReporter().generate(mixed_report(), output_dir=tmp_path)
    assert path and Path(path).name == "report.json"


def test_combined_report_keeps_each_cases_eval_set():
    a = mixed_report("set-a", "A")
    b = EvalReport.create("set-b", [weather_case("rome", city="Rome")], "B")
    data = dump(EvalReport.combine([a, b]))
    assert data["eval_set_id"] == "combined_eval"
    assert [r["metadata"]["eval_set_id"] for r in data["results"]] == ["set-a"] * 4 + ["set-b"]
    assert data["summary"]["total_cases"] == 5


def test_large_reports_are_written_compact(tmp_path):
    small = mixed_report()
    assert JSONReporter(compact_above=4).render(small).count("\n") > 50
    assert JSONReporter(compact_above=3).render(small).count("\n") == 1
    assert JSONReporter(compact_above=None).render(small).count("\n") > 50
    path = JSONReporter(compact_above=3).save(small, tmp_path / "c.json")
    assert EvalReport.from_file(path) == small
