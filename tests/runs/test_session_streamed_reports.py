"""``run``'s reports come from its journal a case at a time (the results are never all in
memory): on a real run with passing, failing and errored cases, repeats and token usage,
every report file is the one the journal's results read whole give, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation import EvalConfig
from tenxeval_tui.evaluation.reporters import ReporterManager
from tenxeval_tui.evaluation.results.journal import read_journal_runs
from tenxeval_tui.evaluation.results.journal_results import is_streamed
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.reports import write_outputs
from tenxeval_tui.runs.session import RunSession, SessionOptions

AGENT = """
_asked = {}


async def agent(message, trace):
    number = int(message[1:])
    _asked[message] = _asked.get(message, 0) + 1
    if number % 5 == 3:
        raise RuntimeError(f"no answer for {message}")
    reply = message if number % 4 else "something else"
    if number % 7 == 1 and _asked[message] == 2:  # flaky: its second run fails
        reply = "flaky"
    trace.node("MAIN", response=reply, tokens={"input_tokens": 10 + number, "output_tokens": 3})
    return reply
"""
OUTPUTS = ("extra.csv", "extra.jsonl", "extra_junit.xml")


def _eval_set(path: Path, cases: int) -> None:
    data = {
        "eval_set_id": "mixed",
        "name": "Mixed outcomes",
        "eval_cases": [
            {
                "eval_id": f"c{i}",
                "name": f"case {i}",
                "conversation": [
                    {
                        "user_content": {"role": "user", "content": f"m{i}"},
                        "expected_final_response": {"role": "assistant", "content": f"m{i}"},
                    }
                ],
            }
            for i in range(cases)
        ],
    }
    path.write_text(json.dumps(data), encoding="utf-8")


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.name.split("_", 1)[0] + path.suffix
        if path.name.startswith("mixed")
        else path.name: path.read_bytes()
        for path in folder.iterdir()
        if path.is_file() and not path.name.endswith(".journal.jsonl")
    }


def test_a_runs_report_files_are_those_of_its_results_read_whole(tmp_path: Path) -> None:
    (tmp_path / "mixed_agent.py").write_text(AGENT, encoding="utf-8")
    _eval_set(tmp_path / "mixed.evalset.json", 30)
    config = EvalConfig.model_validate(
        {"criteria": {"exact_match": {"threshold": 1.0}}, "repeats": 2, "pass_rule": "all"}
    )
    config.reporter.output_dir = str(tmp_path / "streamed")
    config.reporter.junit_xml = True
    plan = RunPlan(
        agent="mixed_agent:agent",
        eval_sets=[tmp_path / "mixed.evalset.json"],
        config=config,
        search_path=tmp_path,
    )
    outputs = tuple(str(tmp_path / "streamed" / name) for name in OUTPUTS)
    outcome = RunSession(plan, SessionOptions(outputs=outputs, keep_journal=True)).run()

    assert outcome.published is not None and outcome.journal is not None
    streamed = outcome.published.report
    assert is_streamed(streamed)  # the results were read from the journal as written
    summary = streamed.summary
    assert summary.passed_cases and summary.failed_cases and summary.error_cases
    assert summary.repeat_stats is not None and summary.repeat_stats.flaky_cases
    assert summary.total_token_usage.input_tokens > 0

    # The loaded path: the journal's results read whole, with what the session set on the
    # report (its config, its run's wall time, its creation time).
    (whole,) = read_journal_runs(outcome.journal)
    whole = whole.model_copy(
        update={
            "config_used": streamed.config_used,
            "timestamp": streamed.timestamp,
            "metadata": streamed.metadata,
            "summary": whole.summary.model_copy(
                update={"wall_seconds": streamed.summary.wall_seconds}
            ),
        }
    )
    assert whole.summary == summary
    assert not is_streamed(whole) and list(streamed.results) == whole.results
    loaded = tmp_path / "loaded"
    loaded_config = config.reporter.model_copy(update={"output_dir": str(loaded)})
    ReporterManager(loaded_config.model_copy(update={"console": False})).run_all(whole)
    write_outputs(whole, [str(loaded / name) for name in OUTPUTS], loaded_config)

    made = _files(tmp_path / "streamed")
    assert sorted(made) == sorted(_files(loaded))
    assert {"mixed.json", "mixed.html", "mixed.xml", *OUTPUTS} == set(made)
    for name, data in _files(loaded).items():
        assert made[name] == data, name
