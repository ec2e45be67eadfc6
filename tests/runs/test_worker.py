"""The workbench's worker process with agents that exit, raise KeyboardInterrupt or leave threads."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet, report_from_journal
from tenxeval_tui.evaluation.provenance.hashing import eval_set_sha256
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.worker import plan_line
from tests.waiting import scaled

AGENT = """
import os, sys, threading, time


async def agent(message, trace):
    trace.node("MAIN", response=message)
    if message == "exit":
        sys.exit(0)
    if message == "interrupt":
        raise KeyboardInterrupt
    if message == "thread":
        threading.Thread(target=time.sleep, args=(3600,)).start()  # not a daemon
    if message == "die":
        os._exit(7)
    return message
"""


def run_worker(tmp_path: Path, messages: list[str]) -> tuple[int, list[dict[str, object]]]:
    (tmp_path / "hostile.py").write_text(AGENT)
    cases = [EvalCase.single_turn(f"c{i}", text, text) for i, text in enumerate(messages)]
    EvalSet(eval_set_id="h", eval_cases=cases).to_file(tmp_path / "h.evalset.json")
    request = RunPlan(
        agent="hostile:agent",
        eval_sets=[tmp_path / "h.evalset.json"],
        concurrency=1,
        output_dir=tmp_path / "out",
        journal=tmp_path / "journal.jsonl",
        search_path=tmp_path,
    )
    done = subprocess.run(
        request.command(), cwd=tmp_path, capture_output=True, text=True, timeout=scaled(120)
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def case_errors(lines: list[dict[str, object]]) -> dict[str, object]:
    return {
        r["eval_id"]: r["error"]  # type: ignore[index]
        for r in (line["result"] for line in lines if line["type"] == "case_end")
    }


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("exit", "SystemExit: the agent tried to end the process"),
        ("interrupt", "KeyboardInterrupt"),
    ],
)
def test_sys_exit_and_keyboardinterrupt_err_their_case_and_the_run_goes_on(
    tmp_path: Path, message: str, error: str
) -> None:
    code, lines = run_worker(tmp_path, [message, "after"])
    assert code == 0
    errors = case_errors(lines)
    assert str(errors["c0"]).startswith(error) and errors["c1"] is None
    assert lines[-1]["type"] == "worker_reports" and lines[-1]["partial"] is False


def test_a_thread_left_running_does_not_keep_the_worker_alive(tmp_path: Path) -> None:
    code, lines = run_worker(tmp_path, ["thread", "after"])  # a hang fails on the timeout
    assert code == 0
    assert case_errors(lines) == {"c0": None, "c1": None}


def test_an_agent_killing_the_worker_leaves_the_finished_cases_in_the_journal(
    tmp_path: Path,
) -> None:
    code, lines = run_worker(tmp_path, ["one", "two", "die", "never"])
    assert code == 7
    assert "worker_reports" not in [line["type"] for line in lines]
    report = report_from_journal(tmp_path / "journal.jsonl")
    assert report.is_partial and [r.eval_id for r in report.results] == ["c0", "c1"]
    # Each finished case whole, its node views made from the worker's pending result.
    first = report.results[0]
    assert [d.response_text for d in first.node_details] == ["one"]
    assert [n["response_text"] for n in first.node_responses] == ["one"]


def test_forget_bulk_empties_a_result_only_after_the_journal_has_it_whole(tmp_path: Path) -> None:
    from tenxeval_tui.evaluation import EvalCaseResult, TrajectoryStep
    from tenxeval_tui.evaluation.observers import ObserverGroup
    from tenxeval_tui.evaluation.results.journal import RunJournal
    from tenxeval_tui.runs.worker import BULKY_RESULT_FIELDS, ForgetBulk

    step = TrajectoryStep.node("MAIN", timestamp=1.0)
    result = EvalCaseResult(
        eval_id="c0",
        passed=True,
        actual_trajectory=[step],
        node_visits=["MAIN"],
        node_responses=[{"node_name": "MAIN"}],
        messages=[{"role": "user", "content": "hi"}],
        metadata={"eval_set_id": "h"},
    )
    result.repeat_results = [result.model_copy(deep=True)]
    journal = tmp_path / "run.jsonl"
    ObserverGroup([RunJournal(journal), ForgetBulk()]).case_end(result)
    kept = report_from_journal(journal).results[0]
    assert kept.actual_trajectory == [step] and kept.node_visits == ["MAIN"]
    assert kept.repeat_results is not None and kept.repeat_results[0].node_visits == ["MAIN"]
    for one in (result, result.repeat_results[0]):
        assert all(getattr(one, name) == [] for name in BULKY_RESULT_FIELDS)
    assert result.passed and result.eval_id == "c0"  # what the summary reads stays


FLOOD = """
async def agent(message, trace):
    for index in range(1_100):
        trace.node(
            f"N{index % 3}",
            response=f"step {index} <b>",
            tool_calls=["search"] if index % 5 == 0 else [],
            tokens={"input_tokens": index % 4, "output_tokens": 1},
        )
    return message
"""


def without_run_values(value: object) -> object:
    """``value`` without what differs run to run (times, thread ids)."""
    if isinstance(value, dict):
        varying = {"timestamp", "duration_seconds", "duration", "thread_id"}
        return {k: without_run_values(v) for k, v in value.items() if k not in varying}
    if isinstance(value, list):
        return [without_run_values(v) for v in value]
    return value


def test_the_workers_reports_of_a_case_of_many_nodes_are_the_in_process_ones(
    tmp_path: Path,
) -> None:
    import asyncio

    from tenxeval_tui.evaluation import EvalReport, HTMLReporter, JSONReporter
    from tenxeval_tui.evaluation.runner import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import load_agent

    (tmp_path / "flood.py").write_text(FLOOD)
    eval_set = EvalSet(eval_set_id="f", eval_cases=[EvalCase.single_turn("c0", "hi", "hi")])
    eval_set.to_file(tmp_path / "f.evalset.json")
    plan = RunPlan(
        agent="flood:agent",
        eval_sets=[tmp_path / "f.evalset.json"],
        output_dir=tmp_path / "out",
        journal=tmp_path / "journal.jsonl",
        search_path=tmp_path,
    )
    config = plan.resolved_config()
    config.reporter.output_dir = str(tmp_path / "out")
    plan = plan.model_copy(update={"config": config})
    done = subprocess.run(plan.command(), cwd=tmp_path, capture_output=True, timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    written = EvalReport.from_file(next((tmp_path / "out").glob("f_*.json")))
    # The same run's journal (written from the same pending result) holds the same case.
    assert written.results == report_from_journal(tmp_path / "journal.jsonl").results
    assert len(written.results[0].node_details) == 1_100

    app, collector = load_agent("flood:agent", cwd=tmp_path)
    quiet = config.model_copy(deep=True)
    quiet.reporter.enabled = False
    report = asyncio.run(EvaluationRunner(quiet).run([(app, collector, eval_set)], quiet))["f"]
    at_home = json.loads(JSONReporter().render(report))
    assert without_run_values(json.loads(written.model_dump_json())["results"]) == (
        without_run_values(at_home["results"])
    )
    page = next((tmp_path / "out").glob("f_*.html")).read_text(encoding="utf-8")

    def cases(html: str) -> object:
        block = html.split('id="case-data">')[1].split("</script>")[0]
        return without_run_values(json.loads(block))

    assert cases(page) == cases(HTMLReporter().render(report))


def test_a_plan_choosing_by_id_none_of_a_files_cases_is_a_worker_error(tmp_path: Path) -> None:
    # it ran nothing and said nothing: the report of no case, exit 0
    (tmp_path / "hostile.py").write_text(AGENT)
    path = tmp_path / "h.evalset.json"
    EvalSet(eval_set_id="h", eval_cases=[EvalCase.single_turn("c0", "hi", "hi")]).to_file(path)
    plan = RunPlan(
        agent="hostile:agent",
        eval_sets=[path],
        only={str(path): ["gone"]},
        output_dir=tmp_path / "out",
        journal=tmp_path / "journal.jsonl",
        search_path=tmp_path,
    )
    done = subprocess.run(
        plan.command(), cwd=tmp_path, capture_output=True, text=True, timeout=scaled(120)
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 3, done.stderr
    errors = [line["message"] for line in lines if line["type"] == "worker_error"]
    assert errors == [
        f"{path}: none of the 1 case(s) chosen for this run (by id, first 'gone') is in the "
        "file: was it changed since they were chosen?"
    ]
    assert not [line for line in lines if line["type"] == "case_start"]


def test_a_streamed_set_s_hash_comes_in_the_journal_s_run_end(tmp_path: Path) -> None:
    # the worker hashed every case before the first ran: run_start held the hash
    (tmp_path / "hostile.py").write_text(AGENT)
    path = tmp_path / "h.evalset.json"
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(3)]
    EvalSet(eval_set_id="h", eval_cases=cases).to_file(path)
    journal = tmp_path / "journal.jsonl"
    plan = RunPlan(agent="hostile:agent", eval_sets=[path], journal=journal, search_path=tmp_path)
    plan.config = plan.resolved_config()
    plan.config.reporter.enabled = False  # `run`'s worker: its reports come from the journal
    done = subprocess.run(
        plan.command(), cwd=tmp_path, capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr

    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    start, end = lines[0], lines[-1]
    assert (start["type"], end["type"]) == ("run_start", "run_end")
    assert start["metadata"]["provenance"]["eval_set_sha256"] is None
    whole = eval_set_sha256(EvalSet.from_file(path))
    assert end["metadata"]["provenance"]["eval_set_sha256"] == whole
    assert report_from_journal(journal).metadata["provenance"]["eval_set_sha256"] == whole


def test_the_plan_line_is_the_json_of_every_case_to_run() -> None:
    sets = [
        EvalSet(
            eval_set_id="a",
            name='A "quoted"',
            eval_cases=[EvalCase(eval_id=f"c{i}", name="ñ\n" * (i % 2)) for i in range(1234)],
        ),
        EvalSet(eval_set_id="b", eval_cases=[EvalCase(eval_id="only")]),
    ]
    whole = {
        "type": "worker_plan",
        "eval_sets": [
            {
                "eval_set_id": s.eval_set_id,
                "name": s.name,
                "cases": [[case.eval_id, case.name] for case in s.eval_cases],
            }
            for s in sets
        ],
    }
    assert plan_line(sets) == json.dumps(whole) + "\n"
