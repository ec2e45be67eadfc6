"""`tenxeval-tui run --watch` and the shared watch policy: a criteria-only change of the
config re-scores the last results without running the agent; any other change reruns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tests.cli.watching import Watch

COUNTING_AGENT = """
from pathlib import Path


async def agent(message, trace):
    with Path(__file__).with_name("calls.txt").open("a") as calls:
        calls.write(message + "\\n")
    trace.node("MAIN", response=message)
    return message
"""


def config(criteria: dict[str, dict[str, float]], timeout: float = 60) -> str:
    return json.dumps({"criteria": criteria, "timeout": timeout})


@pytest.mark.slow
def test_a_criteria_change_rescores_and_another_config_change_reruns(tmp_path: Path) -> None:
    (tmp_path / "counting.py").write_text(COUNTING_AGENT)
    EvalSet(
        eval_set_id="echo",
        eval_cases=[
            EvalCase.single_turn("same", "hello world", "hello world"),
            EvalCase.single_turn("close", "hello there", "hello world"),
        ],
    ).to_file(tmp_path / "echo.evalset.json")
    cfg = tmp_path / "cfg.json"
    cfg.write_text(config({"exact_match": {"threshold": 1.0}}))
    calls = tmp_path / "calls.txt"
    args = ["--agent", "counting:agent", "echo.evalset.json", "--config", "cfg.json"]
    watch = Watch(tmp_path, *args, "--output-dir", "out")
    try:
        watch.wait_for(r"\[watch\] run 1 finished \(exit 1\)")  # "close" is not exact
        assert len(calls.read_text().splitlines()) == 2
        # Only the criteria change: the results are scored again, the agent does not run.
        watch.change(
            cfg,
            config({"rouge_match": {"threshold": 0.4}}),
            r"only the criteria changed: re-scoring",
        )
        watch.wait_for(r"\[watch\] run 2 finished \(exit 0, 1 eval set\)")
        assert len(calls.read_text().splitlines()) == 2
        scored_by = {
            p.name: {c["criterion"] for r in report["results"] for c in r["criterion_results"]}
            for p in (tmp_path / "out").glob("*.json")
            for report in [json.loads(p.read_text())]
        }
        assert sorted(map(sorted, scored_by.values())) == [["exact_match"], ["rouge_match"]]
        (rescored,) = [
            json.loads((tmp_path / "out" / name).read_text())
            for name, criteria in scored_by.items()
            if criteria == {"rouge_match"}
        ]
        assert [r["passed"] for r in rescored["results"]] == [True, True]
        assert rescored["results"][1]["actual_response"] == "hello there"  # as it was
        # The timeout changes too: a run may end differently, so every case runs again.
        watch.change(
            cfg,
            config({"rouge_match": {"threshold": 0.4}}, timeout=30),
            r"cfg.json changed: rerunning every eval set",
        )
        watch.wait_for(r"\[watch\] run 3 finished \(exit 0, 1 eval set\)")
        assert len(calls.read_text().splitlines()) == 4
    finally:
        code = watch.stop()
    assert code == 130
