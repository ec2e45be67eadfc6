"""EvaluationRunner, run observers, JSON-lines streaming and the run journal."""

from __future__ import annotations

import io
import logging
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from sample_evals.plain_agent import support_agent
from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    EvalCase,
    EvalConfig,
    EvalReport,
    EvalSet,
    EvaluationRunner,
    EventModel,
    JsonLinesObserver,
    RunJournal,
    RunObserver,
    Trace,
    create_eval_app,
    read_journal,
    replay_json_lines,
    report_from_journal,
)
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase as _EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.observers import ObserverGroup

from .conftest import config_with


class FakeReporters:
    """Stands in for the reporters package: records run_all calls, can fail."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.fail = fail
        recorder = self

        class Output:
            errors: list[tuple[str, str]] = [("html", "disk full")] if fail else []

        class ReporterManager:
            def __init__(self, config: Any) -> None:
                self.config = config

            def run_all(self, report: EvalReport, output_dir: str | None = None) -> Output:
                recorder.calls.append((report.eval_set_id, output_dir))
                if recorder.fail:
                    raise OSError("cannot write")
                return Output()

        self.module = types.ModuleType("tenxeval_tui.evaluation.reporters")
        self.module.ReporterManager = ReporterManager  # type: ignore[attr-defined]


@pytest.fixture
def reporters(monkeypatch: pytest.MonkeyPatch) -> FakeReporters:
    fake = FakeReporters()
    monkeypatch.setitem(sys.modules, "tenxeval_tui.evaluation.reporters", fake.module)
    return fake


def one_case_set(set_id: str, queries: list[str]) -> EvalSet:
    cases = [EvalCase.single_turn(f"{set_id}-{i}", q) for i, q in enumerate(queries)]
    return EvalSet(eval_set_id=set_id, name=set_id.title(), eval_cases=cases)


def reporting_config() -> EvalConfig:
    return EvalConfig.model_validate({"criteria": {}, "reporter": {"enabled": True}})


async def test_runs_every_evaluation_and_reports_each_report_once(
    reporters: FakeReporters, tmp_path: Path
) -> None:
    weather_app, weather_collector = create_eval_app(build_graph())
    support_app, support_collector = create_eval_app(support_agent)
    path = tmp_path / "support.evalset.json"
    one_case_set("support", ["Where is order A100?", "Hello"]).to_file(path)

    runner = EvaluationRunner()
    assert runner.summary == {"total_evaluations": 0}
    reports = await runner.run(
        [
            (weather_app, weather_collector, one_case_set("weather", ["Weather in Oslo?"])),
            (support_app, support_collector, str(path)),
        ],
        config=reporting_config(),
    )
    assert list(reports) == ["weather", "support"]
    assert runner.results["support"].results[0].actual_tool_calls[0].args == {"order_id": "A100"}
    assert sorted(c[0] for c in reporters.calls) == ["support", "weather"]
    assert runner.summary == {
        "total_evaluations": 2,
        "total_cases": 3,
        "passed_cases": 3,
        "overall_pass_rate": 1.0,
    }


async def test_two_evaluations_of_one_eval_set_both_get_their_reports(
    reporters: FakeReporters,
) -> None:
    # two agents on one eval set: results keep the last report, but both are written
    first_app, first_collector = create_eval_app(support_agent)
    second_app, second_collector = create_eval_app(support_agent)
    runner = EvaluationRunner()
    reports = await runner.run(
        [
            (first_app, first_collector, one_case_set("support", ["Hello"])),
            (second_app, second_collector, one_case_set("support", ["Where is order A1?"])),
        ],
        config=reporting_config(),
    )
    assert [c[0] for c in reporters.calls] == ["support", "support"]
    assert reports["support"].results[0].eval_id == "support-0"
    assert runner.results["support"] is reports["support"]
    assert "A1" in reports["support"].results[0].messages[0]["content"]


async def test_reporter_failures_are_logged_not_raised(
    reporters: FakeReporters, caplog: pytest.LogCaptureFixture
) -> None:
    reporters.fail = True
    app, collector = create_eval_app(support_agent)
    with caplog.at_level(logging.ERROR):
        reports = await EvaluationRunner().run(
            [(app, collector, one_case_set("s", ["Hello"]))], config=reporting_config()
        )
    assert reports["s"].summary.passed_cases == 1
    assert "reporters failed for s" in caplog.text


async def test_no_reporters_when_disabled(reporters: FakeReporters) -> None:
    app, collector = create_eval_app(support_agent)
    await EvaluationRunner(config_with()).run([(app, collector, one_case_set("s", ["Hello"]))])
    assert reporters.calls == []


async def test_broken_inputs_fail_before_anything_runs(tmp_path: Path) -> None:
    ran: list[str] = []

    async def agent(message: str, trace: Trace) -> str:
        ran.append(message)
        return message

    app, collector = create_eval_app(agent)
    broken = tmp_path / "broken.evalset.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.evalset\.json"):
        await EvaluationRunner(config_with()).run(
            [(app, collector, one_case_set("ok", ["hi"])), (app, collector, str(broken))]
        )
    assert ran == []


class Everything(RunObserver):
    def __init__(self) -> None:
        self.lines: list[str] = []

    def on_run_start(self, eval_set: EvalSet, cases: Any) -> None:
        self.lines.append(f"run_start {eval_set.eval_set_id} {len(cases)}")

    def on_case_start(self, eval_set_id: str, case: _EvalCase) -> None:
        self.lines.append(f"case_start {case.eval_id}")

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self.lines.append(f"event {eval_id} {event.event.value} {event.node_name}")

    def on_case_end(self, result: Any) -> None:
        self.lines.append(f"case_end {result.eval_id} {result.status}")

    def on_run_end(self, report: EvalReport) -> None:
        self.lines.append(f"run_end {report.eval_set_id} {report.summary.total_cases}")


async def test_observers_see_every_step_and_a_failing_observer_is_ignored() -> None:
    class Broken(RunObserver):
        def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
            raise RuntimeError("observer bug")

    seen = Everything()
    app, collector = create_eval_app(build_graph())
    runner = EvaluationRunner(config_with(max_concurrency=1), observers=[Broken(), seen])
    await runner.run([(app, collector, one_case_set("w", ["Weather in Rome?", "crash"]))])
    assert seen.lines == [
        "run_start w 2",
        "case_start w-0",
        "event w-0 llm_call MAIN",  # the model call starts
        "event w-0 node_execution MAIN",
        "event w-0 tool_execution get_weather",  # the tool call starts
        "event w-0 node_execution TOOL",
        "event w-0 tool_execution get_weather",
        "event w-0 llm_call MAIN",
        "event w-0 node_execution MAIN",
        "event w-0 graph_execution ",  # end of the turn
        "event w-0 graph_execution ",  # the scoring starts
        "case_end w-0 passed",
        "case_start w-1",
        "event w-1 llm_call MAIN",
        "event w-1 graph_execution ",  # the failure
        "case_end w-1 error",
        "run_end w 2",
    ]


def test_the_hooks_an_observer_leaves_as_they_are_are_not_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A run calls every hook for every case: RunObserver's own (which do nothing) are
    # left out, an observer's own and a duck-typed one's are called, in order.
    left: list[str] = []
    for name in ("on_case_start", "on_repeat_start", "on_event", "on_repeat_end", "on_case_end"):
        monkeypatch.setattr(RunObserver, name, lambda self, *args, _n=name: left.append(_n))
    called: list[str] = []

    class Ends(RunObserver):
        def on_case_end(self, result: Any) -> None:
            called.append(f"ends {result.eval_id}")

    class Duck:
        def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
            called.append(f"duck event {eval_id}")

    group = ObserverGroup([Ends(), RunObserver(), Duck()])  # type: ignore[list-item]
    case = _EvalCase(eval_id="c")
    group.case_start("s", case)
    group.repeat_start("s", case, 0, 1)
    group.event("s", "c", EventModel(event="graph_execution"))
    group.repeat_end("s", "c", EvalCaseResult(eval_id="c", passed=True), 1)
    group.case_end(EvalCaseResult(eval_id="c", passed=True))
    assert left == []
    assert called == ["duck event c", "ends c"]


async def test_json_lines_replay_into_another_observer() -> None:
    buffer = io.StringIO()
    direct = Everything()
    app, collector = create_eval_app(support_agent)
    runner = EvaluationRunner(
        config_with(max_concurrency=1), observers=[JsonLinesObserver(buffer.write), direct]
    )
    await runner.run([(app, collector, one_case_set("s", ["Where is order A200?", "outage!"]))])
    lines = ["agent print noise", *buffer.getvalue().splitlines(), '{"type": "case_e']
    replayed = Everything()
    assert replay_json_lines(lines, replayed) == len(buffer.getvalue().splitlines())
    assert replayed.lines == direct.lines


async def test_journal_rebuilds_the_report_of_a_killed_run(tmp_path: Path) -> None:
    journal = tmp_path / "runs" / "journal.jsonl"
    app, collector = create_eval_app(support_agent)
    runner = EvaluationRunner(config_with(max_concurrency=1), observers=[RunJournal(journal)])
    queries = ["Where is order A100?", "Refund order A300 please", "Hello", "outage"]
    complete = await runner.run([(app, collector, one_case_set("s", queries))])

    full = report_from_journal(journal)
    assert not full.is_partial
    assert [r.eval_id for r in full.results] == [r.eval_id for r in complete["s"].results]
    assert full.summary.error_cases == 1

    # A run killed after two cases: its last line half written, no run_end.
    lines = journal.read_text(encoding="utf-8").splitlines()
    killed = tmp_path / "killed.jsonl"
    killed.write_text("\n".join([*lines[:3], lines[3][:25]]) + "\n", encoding="utf-8")
    partial = report_from_journal(killed)
    assert partial.is_partial
    assert [r.eval_id for r in partial.results] == ["s-0", "s-1"]
    assert partial.results[1].actual_tool_calls[0].name == "refund"


async def test_journal_of_several_sets_combines(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    app, collector = create_eval_app(support_agent)
    await EvaluationRunner(config_with(), observers=[RunJournal(journal)]).run(
        [
            (app, collector, one_case_set("a", ["Hello"])),
            (app, collector, one_case_set("b", ["Hi"])),
        ]
    )
    assert list(read_journal(journal)) == ["a", "b"]
    combined = report_from_journal(journal)
    assert combined.eval_set_id == "combined_eval"
    assert [r.eval_set_id for r in combined.results] == ["a", "b"]


def test_a_corrupt_journal_line_is_named(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text(
        '{"type": "run_start", "eval_set_id": "a"}\nnot json\n{}\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"j\.jsonl:2"):
        read_journal(journal)


async def test_runner_cancel_keeps_what_finished() -> None:
    import asyncio

    async def agent(message: str, trace: Trace) -> str:
        await asyncio.sleep(0.05)
        return message

    app, collector = create_eval_app(agent)

    class StopAfterTwo(RunObserver):
        def __init__(self) -> None:
            self.done = 0

        def on_case_end(self, result: Any) -> None:
            self.done += 1
            if self.done == 2:
                runner.cancel()

    runner = EvaluationRunner(config_with(max_concurrency=1), observers=[StopAfterTwo()])
    reports = await runner.run(
        [
            (app, collector, one_case_set("first", ["a", "b", "c", "d"])),
            (app, collector, one_case_set("second", ["e"])),
        ]
    )
    assert list(reports) == ["first"]
    assert reports["first"].is_partial and reports["first"].summary.total_cases == 2


async def test_real_reporters_write_each_report_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = EvalConfig.model_validate(
        {"criteria": {}, "reporter": {"output_dir": "out", "junit_xml": True}}
    )
    app, collector = create_eval_app(support_agent)
    runner = EvaluationRunner(config)
    await runner.run(
        [
            (app, collector, one_case_set("a", ["Hello"])),
            (app, collector, one_case_set("b", ["Hi"])),
        ]
    )
    written = sorted(p.name.split("_2")[0] + p.suffix for p in (tmp_path / "out").iterdir())
    assert written == ["a.html", "a.json", "a.xml", "b.html", "b.json", "b.xml"]
    assert capsys.readouterr().out.count("Evaluation") >= 2  # the console report, once each


async def test_a_journal_appended_to_after_a_killed_run_reads_in_case_order(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "j.jsonl"
    app, collector = create_eval_app(support_agent)
    await EvaluationRunner(config_with(), observers=[RunJournal(journal)]).run(
        [(app, collector, one_case_set("a", ["Hello", "Hi"]))]
    )
    text = journal.read_text(encoding="utf-8")
    journal.write_text(text + text.splitlines()[1][:30], encoding="utf-8")  # killed mid-write
    await EvaluationRunner(config_with(), observers=[RunJournal(journal)]).run(
        [(app, collector, one_case_set("b", ["Hello"]))]
    )
    reports = read_journal(journal)  # the next run's first line did not join the torn one
    assert list(reports) == ["a", "b"] and not reports["b"].is_partial

    # cases are listed as the run listed them, whatever order they finished in
    lines = journal.read_text(encoding="utf-8").splitlines()
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text("\n".join([lines[0], lines[2], lines[1], lines[3]]) + "\n")
    assert [r.eval_id for r in read_journal(swapped)["a"].results] == ["a-0", "a-1"]
