"""QuickEval against the offline weather graph (the real 10xGraph runtime, a scripted model)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    EvalPresets,
    EvalSetBuilder,
    QuickEval,
    create_eval_app,
)


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # QuickEval writes the default report files, as 10xGraph does


def scores(report) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return {cr.criterion: cr.score for r in report.results for cr in r.criterion_results}


async def test_check_with_tools_scores_tools_and_reply_and_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.check(
        app,
        collector,
        "What is the weather in Paris?",
        expected_response_contains="The weather in Paris is sunny, 21°C.",
        expected_tools=["get_weather"],
        threshold=0.6,
    )
    assert report.eval_set_id == "quick_check"
    assert [r.eval_id for r in report.results] == ["quick_check"]
    assert report.summary.pass_rate == 1.0
    found = {cr.criterion: cr for cr in report.results[0].criterion_results}
    assert found["tool_name_match_score"].threshold == 1.0
    assert found["response_match_score"].threshold == 0.6
    assert "quick_check" in capsys.readouterr().out


async def test_check_without_tools_is_a_quick_check(capsys: pytest.CaptureFixture[str]) -> None:
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.check(
        app, collector, "Hello", expected_response_equals="Sorry, no.", print_results=False
    )
    assert list(scores(report)) == ["rouge_match"]
    assert not report.results[0].passed  # "Hi! I can tell you the weather..." is not it
    # The config's own console reporter still runs (as in 10xGraph); print_results adds
    # QuickEval's printout on top of it.
    quiet = capsys.readouterr().out.count("Evaluation: Quick Check")
    await QuickEval.check(app, collector, "Hello", expected_response_equals="Sorry, no.")
    loud = capsys.readouterr().out.count("Evaluation: Quick Check")
    assert (quiet, loud) == (1, 2)


async def test_batch_uses_the_quick_ids_and_the_threshold() -> None:
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.batch(
        app,
        collector,
        [("Hello", "Hi! I can tell you the weather in any city."), ("Sing", "la la")],
        threshold=0.9,
        print_results=False,
    )
    assert [r.eval_id for r in report.results] == ["test_1", "test_2"]
    assert [r.passed for r in report.results] == [True, False]
    assert {cr.threshold for r in report.results for cr in r.criterion_results} == {0.9}


async def test_tool_usage_fails_the_case_whose_tool_was_not_called() -> None:
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.tool_usage(
        app,
        collector,
        [
            ("What is the weather in Rome?", "sunny", ["get_weather"]),
            ("Hello", "Hi", ["get_weather"]),
        ],
        print_results=False,
    )
    assert [r.eval_id for r in report.results] == ["tool_test_1", "tool_test_2"]
    assert [r.passed for r in report.results] == [True, False]
    assert report.eval_set_name == "tool_usage_tests"


async def test_conversation_flow_runs_one_multi_turn_case() -> None:
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.conversation_flow(
        app,
        collector,
        [
            ("Hello", "Hi! I can tell you the weather in any city."),
            ("What is the weather in Oslo?", "The weather in Oslo is snowing, -3°C."),
        ],
        print_results=False,
    )
    assert report.eval_set_id == "conversation_test"
    (result,) = report.results
    assert result.eval_id == "conversation_flow"
    assert result.actual_response == "The weather in Oslo is snowing, -3°C."
    assert result.passed


async def test_preset_takes_an_eval_set_file(tmp_path: Path) -> None:
    path = tmp_path / "weather.evalset.json"
    EvalSetBuilder("w").add_case(
        query="What is the weather in Tokyo?", expected="cloudy", expected_tools=["get_weather"]
    ).save(path)
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.preset(
        app, collector, EvalPresets.tool_usage(), str(path), print_results=False
    )
    assert set(scores(report)) == {"tool_name_match_score", "tool_trajectory_avg_score"}
    assert report.summary.pass_rate == 1.0


async def test_from_builder_defaults_to_a_quick_check() -> None:
    builder = EvalSetBuilder("b").add_case(query="Hello", expected="Hi! I can tell you")
    app, collector = create_eval_app(build_graph())
    report = await QuickEval.from_builder(app, collector, builder, print_results=False)
    assert list(scores(report)) == ["rouge_match"]


def eval_set():  # type: ignore[no-untyped-def]
    return (
        EvalSetBuilder("sync")
        .add_case(query="What is the weather in Berlin?", expected="windy", case_id="berlin")
        .build()
    )


def test_run_sync_outside_an_event_loop() -> None:
    app, collector = create_eval_app(build_graph())
    report = QuickEval.run_sync(app, collector, eval_set(), print_results=False)
    assert report.results[0].actual_response == "The weather in Berlin is windy, 12°C."


async def test_run_sync_inside_a_running_event_loop_as_in_a_notebook() -> None:
    asyncio.get_running_loop()  # the situation of a notebook cell
    app, collector = create_eval_app(build_graph())
    report = QuickEval.run_sync(app, collector, eval_set(), print_results=False)
    assert report.results[0].actual_response == "The weather in Berlin is windy, 12°C."
    assert report.results[0].error is None
