"""The worker writes only the event lines its reader wants (``RunPlan.events``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.observers import JsonLinesObserver
from tenxeval_tui.runs.child_run import child_plan
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.wanted_events import WantedJsonLinesObserver
from tests.waiting import scaled

AGENT = """
async def agent(message, trace):
    trace.node("MAIN", response=message)
    return message
"""


def worker_lines(tmp_path: Path, plan: RunPlan) -> list[dict[str, object]]:
    done = subprocess.run(
        plan.command(), cwd=tmp_path, capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def plan_of(tmp_path: Path) -> RunPlan:
    (tmp_path / "echo.py").write_text(AGENT)
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(3)]
    EvalSet(eval_set_id="e", eval_cases=cases).to_file(tmp_path / "e.evalset.json")
    return RunPlan(
        agent="echo:agent",
        eval_sets=[tmp_path / "e.evalset.json"],
        concurrency=1,
        output_dir=tmp_path / "out",
        journal=tmp_path / "journal.jsonl",
        search_path=tmp_path,
    )


def test_the_command_lines_worker_writes_only_the_judging_events(tmp_path: Path) -> None:
    plan = plan_of(tmp_path)
    every = worker_lines(tmp_path, plan)
    run_plan = child_plan(plan, tmp_path / "run.journal.jsonl", verbose=False)
    lean = worker_lines(tmp_path, run_plan)
    events = [line["event"] for line in lean if line["type"] == "event"]
    assert len(events) == 3 and all("judging" in e["data"] for e in events)  # type: ignore[index]
    assert len([line for line in every if line["type"] == "event"]) > len(events)
    # Every other line is there as before: the cases, their results, the plan, the reports.
    kinds = [line["type"] for line in lean if line["type"] != "event"]
    assert kinds == [line["type"] for line in every if line["type"] != "event"]
    assert kinds.count("case_end") == 3


@pytest.mark.parametrize(("wanted", "written"), [("all", 2), ("judging", 1)])
def test_the_observer_drops_what_its_reader_does_not_want(wanted: str, written: int) -> None:
    lines: list[str] = []
    observer = WantedJsonLinesObserver(lines.append, events=wanted)  # type: ignore[arg-type]
    node = EventModel(event=Event.NODE_EXECUTION, event_type=EventType.END, node_name="MAIN")
    judging = EventModel(
        event=Event.GRAPH_EXECUTION, event_type=EventType.PROGRESS, data={"judging": ["x"]}
    )
    observer.on_event("e", "c0", node)
    observer.on_event("e", "c0", judging)
    observer.on_repeat_event("e", "c0", 0, node)
    assert len(lines) == written + (1 if wanted == "all" else 0)
    assert any('"judging"' in line for line in lines)


def test_the_run_start_line_is_the_one_every_reader_reads() -> None:
    cases = [EvalCase(eval_id=f"c{i}ñ") for i in range(1234)]
    eval_set = EvalSet(eval_set_id="s", name='S "1"', eval_cases=cases)
    lines: dict[str, list[str]] = {"ours": [], "core": []}
    WantedJsonLinesObserver(lines["ours"].append, events="judging").on_run_start(eval_set, cases)
    JsonLinesObserver(lines["core"].append).on_run_start(eval_set, cases)
    assert lines["ours"] == lines["core"] and len(lines["ours"]) == 1
