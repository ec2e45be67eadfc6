"""`tenxeval-tui run`'s repeat, output, JSON, exit-code, subset and cost flags, through the real
console script in a subprocess (the sample plain agent as in ``test_run.py``)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalReport, EvalSet
from tenxeval_tui.runs.outcome import exit_code
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, case_ids, reports
from tests.report_samples import case as sample_case

FLAKY_AGENT = """
calls = 0

async def agent(message, trace):
    # every other call answers wrongly: with repeats, half the runs of a case fail
    global calls
    calls += 1
    reply = message if calls % 2 else "something else"
    trace.node("MAIN", response=reply)
    return reply
"""


def flaky_project(project: Path) -> list[str]:
    (project / "flaky_agent.py").write_text(FLAKY_AGENT)
    EvalSet(
        eval_set_id="flaky",
        eval_cases=[EvalCase.single_turn(f"c{i}", f"echo {i}", f"echo {i}") for i in range(2)],
    ).to_file(project / "flaky.evalset.json")
    return ["--agent", "flaky_agent:agent", "flaky.evalset.json", "--concurrency", "1"]


def test_repeat_runs_each_case_n_times_and_the_pass_rule_decides(
    project: Path, in_process: InProcess
) -> None:
    args = flaky_project(project)
    strict = in_process(project, "run", *args, "--repeat", "2", "--output-dir", "o1", "--no-html")
    # each case passed one run of two: "all" fails it
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "FAILED: 0/2 passed" in strict.stdout
    assert "2/4 runs passed (50.0%)" in strict.stdout
    (report,) = reports(project / "o1")
    data = json.loads(report.read_text())
    assert [len(r["repeat_results"]) for r in data["results"]] == [2, 2]
    assert data["config_used"]["repeats"] == 2
    lenient = in_process(
        project, "run", *args, "--repeat", "2", "--pass-rule", "0.5", "--output-dir", "o2"
    )
    assert lenient.returncode == 0, lenient.stdout + lenient.stderr
    assert "PASSED: 2/2 passed" in lenient.stdout
    assert json.loads(reports(project / "o2")[0].read_text())["config_used"]["pass_rule"] == 0.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repeat", "0"], r"--repeat: 0 is not a whole number from 1 to 10,000"),
        (["--pass-rule", "most"], r"--pass-rule: 'most' is neither 'all' nor a number"),
        (["--pass-rule", "1.5"], r"--pass-rule: 1.5 is not a rate in \(0, 1\]"),
    ],
)
def test_bad_repeat_flags_are_usage_errors(
    project: Path, in_process: InProcess, args: list[str], message: str
) -> None:
    done = in_process(project, "run", "--agent", AGENT, "evals", *args, "--output-dir", "out")
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert not (project / "out").exists() or not reports(project / "out")


def test_o_writes_the_report_in_the_format_each_ending_names(
    project: Path, in_process: InProcess
) -> None:
    args = ["--agent", AGENT, "evals", "--tags", "smoke", "--output-dir", "out", "-q"]
    outputs = ["-o", "extra/cases.csv", "-o", "rows.JSONL", "-o", "ci.xml", "-o", "r.json"]
    done = in_process(project, "run", *args, *outputs)
    assert done.returncode == 0, done.stdout + done.stderr
    with (project / "extra/cases.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["eval_id"] for row in rows} == {"greeting", "order_a100"}
    lines = (project / "rows.JSONL").read_text().splitlines()
    assert {json.loads(line)["eval_id"] for line in lines} == {"greeting", "order_a100"}
    assert (project / "ci.xml").read_text().lstrip().startswith("<?xml")
    assert "<testsuite" in (project / "ci.xml").read_text()
    assert sorted(case_ids(project / "r.json")) == ["greeting", "order_a100"]
    assert len(reports(project / "out")) == 1  # the usual reports are still written


def test_o_with_an_unknown_ending_is_a_usage_error_before_anything_runs(
    project: Path, in_process: InProcess
) -> None:
    args = ["--agent", AGENT, "evals", "-o", "report.txt", "--output-dir", "out"]
    done = in_process(project, "run", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "-o: report.txt: ending '.txt' names no report format (known: .json" in done.stderr
    assert not (project / "out").exists() and not (project / "report.txt").exists()


def test_json_prints_only_a_summary_on_stdout(project: Path, in_process: InProcess) -> None:
    done = in_process(
        project, "run", "--agent", AGENT, "evals", "--output-dir", "out", "--json", "-o", "r.csv"
    )
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)  # the whole of stdout is one JSON document
    assert summary["exit_code"] == 1
    assert (summary["total_cases"], summary["passed_cases"], summary["failed_cases"]) == (9, 7, 1)
    assert summary["error_cases"] == 1 and summary["errored"] == ["service_outage"]
    assert summary["pass_rate"] == pytest.approx(7 / 9)
    assert "cost_usd" not in summary  # no price table, no cost
    assert str(project / "r.csv") in summary["reports"]
    assert any(p.endswith(".json") and "/out/" in p for p in summary["reports"])
    assert all(Path(p).is_file() for p in summary["reports"])
    assert re.search(r"^\[\d/9\] PASS ", done.stderr, re.M)  # progress went to stderr
    usage = in_process(project, "run", "--agent", AGENT, "evals", "--json", "--watch")
    assert usage.returncode == 2 and usage.stdout == ""
    assert "--json: not with --watch" in usage.stderr


def test_error_exit_code_tells_errored_cases_from_failed_ones(
    project: Path, in_process: InProcess
) -> None:
    # The rule is exit_code's (below); through the console script, the flag reaches it.
    base = ["run", "--agent", AGENT, "evals", "-q", "--no-html"]
    errored = in_process(project, *base, "--output-dir", "o1", "--error-exit-code", "3")
    assert errored.returncode == 3, errored.stdout + errored.stderr
    bad = in_process(project, *base, "--error-exit-code", "2")
    assert bad.returncode == 2 and "--error-exit-code: 2 is not an exit code" in bad.stderr


def test_the_exit_code_of_errored_failed_and_passing_runs() -> None:
    passing = EvalReport.create("s", [sample_case("a")])
    failed = EvalReport.create("s", [sample_case("a"), sample_case("b", rouge=0.2)])
    errored = EvalReport.create("s", [sample_case("a"), sample_case("c", error="Boom")])
    assert [exit_code(r, 1.0, error_code=3) for r in (passing, failed, errored)] == [0, 1, 3]
    assert exit_code(errored, 1.0) == 1  # the default stays 1
    # Failed but not errored: the threshold decides; an errored case fails whatever it is.
    assert [exit_code(failed, t) for t in (0.5, 0.51)] == [0, 1]
    assert exit_code(errored, 0.5) == 1


def test_limit_runs_the_first_n_cases_after_the_filters_and_says_so_first(
    project: Path, in_process: InProcess
) -> None:
    done = in_process(
        project, "run", "--agent", AGENT, "evals", "--limit", "3", "--output-dir", "o1"
    )
    assert done.stdout.splitlines()[0] == "running 3 of 9 selected cases (--limit 3)"
    assert case_ids(reports(project / "o1")[0]) == ["order_a100", "order_a200", "refund_a300"]
    assert done.returncode == 0, done.stdout + done.stderr
    tagged = ["--tags", "smoke", "--limit", "1", "--output-dir", "o2"]
    done = in_process(project, "run", "--agent", AGENT, "evals", *tagged)
    assert done.stdout.splitlines()[0] == "running 1 of 2 selected cases (--limit 1)"
    assert case_ids(reports(project / "o2")[0]) == ["order_a100"]


def test_sample_with_a_seed_runs_the_cases_the_core_picks_across_eval_sets(
    project: Path, in_process: InProcess
) -> None:
    from tenxeval_tui.evaluation.subsets import pick_cases

    other = EvalSet.from_file(project / "evals/plain.evalset.json")
    other.eval_set_id = "other"
    other.to_file(project / "evals/other.evalset.json")  # found first: folders are sorted
    plain = EvalSet.from_file(project / "evals/plain.evalset.json")
    pool = [("other", c.eval_id) for c in other.eval_cases]
    pool += [("plain_agent", c.eval_id) for c in plain.eval_cases]
    cases = [*other.eval_cases, *plain.eval_cases]
    picked = pick_cases(cases, sample=5, seed=11)
    expected = sorted(pool[next(i for i, c in enumerate(cases) if c is p)] for p in picked)
    args = ["run", "--agent", AGENT, "evals", "--sample", "5", "--seed", "11", "-q"]
    for folder in ("o1", "o2"):  # the same seed, the same cases
        done = in_process(project, *args, "--output-dir", folder, "--json")
        assert done.stderr.splitlines()[0] == (
            "running 5 of 18 selected cases (--sample 5 --seed 11)"
        ), done.stderr
        (report,) = reports(project / folder)
        results = json.loads(report.read_text())["results"]
        ran = sorted((r["metadata"]["eval_set_id"], r["eval_id"]) for r in results)
        assert ran == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--limit", "0"], r"--limit: must be at least 1, not 0"),
        (["--sample", "2", "--limit", "2"], r"--limit and --sample: use one or the other"),
        (["--seed", "3"], r"--seed: only goes with --sample"),
        (["--resume", "j.jsonl", "--watch"], r"--resume: not with --watch or --from-journal"),
    ],
)
def test_bad_subset_and_resume_flags_are_usage_errors(
    project: Path, in_process: InProcess, args: list[str], message: str
) -> None:
    done = in_process(project, "run", "--agent", AGENT, "evals", *args, "--output-dir", "out")
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(message, done.stderr), done.stderr


PRICED = {
    "prices": {"agent-model": {"input": 1000, "output": 1000}},
    "agent_model": "agent-model",
    "criteria": {"response_match_score": {"threshold": 0.5}},
}


def test_max_cost_stops_the_run_says_so_and_exits_1_with_the_partial_report(
    project: Path, in_process: InProcess
) -> None:
    (project / "priced.json").write_text(json.dumps(PRICED))
    args = ["run", "--agent", AGENT, "evals", "--config", "priced.json", "--concurrency", "1"]
    whole = in_process(project, *args, "--tags", "smoke", "--output-dir", "o1", "--json")
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["cost_usd"] > 0  # priced: each case costs something
    done = in_process(project, *args, "--max-cost", "0.1", "--output-dir", "o2", "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["stopped_by"] == "max_cost" and summary["partial"] is True
    assert 1 <= summary["total_cases"] < 9
    assert len(summary["not_run"]) == 9 - summary["total_cases"]
    assert f"stopped by --max-cost $0.1: {len(summary['not_run'])} case(s) not run" in done.stderr
    data = json.loads(reports(project / "o2")[0].read_text())
    assert data["metadata"]["stopped_by"] == "max_cost" and data["metadata"]["partial"] is True
    assert data["metadata"]["not_run"] == summary["not_run"]
    assert data["config_used"]["max_cost"] == 0.1
    assert not list((project / "o2").glob("run-*.journal.jsonl"))  # reports written, dropped
    bad = in_process(project, *args, "--max-cost", "-1")
    assert bad.returncode == 2 and "--max-cost: -1.0 is not an amount of USD" in bad.stderr


COUNTING_AGENT = """
from pathlib import Path

async def agent(message, trace):
    # every call is recorded in calls.txt (retries run in a new process: the file counts)
    calls = Path("calls.txt")
    before = calls.read_text().splitlines() if calls.exists() else []
    calls.write_text("\\n".join([*before, message]) + "\\n")
    if message == "shaky" and "shaky" not in before:
        raise ConnectionError("the first call fails")
    if message == "broken":
        raise ConnectionError("always down")
    trace.node("MAIN", response=message)
    return message
"""


def counting_project(project: Path, ids: list[str]) -> list[str]:
    (project / "counting_agent.py").write_text(COUNTING_AGENT)
    EvalSet(
        eval_set_id="counting",
        eval_cases=[EvalCase.single_turn(i, i, i) for i in ids],
    ).to_file(project / "counting.evalset.json")
    agent = ["--agent", "counting_agent:agent", "--concurrency", "1"]
    return ["run", *agent, "counting.evalset.json", "--no-html"]


def calls(project: Path) -> list[str]:
    return (project / "calls.txt").read_text().splitlines()


def test_retry_errors_reruns_errored_cases_and_keeps_their_last_result(
    project: Path, in_process: InProcess
) -> None:
    args = counting_project(project, ["fine", "shaky", "broken"])
    once = in_process(project, *args, "--output-dir", "o1")
    assert once.returncode == 1 and "FAILED: 1/3 passed, 0 failed, 2 errored" in once.stdout
    (project / "calls.txt").unlink()
    done = in_process(project, *args, "--output-dir", "o2", "--retry-errors", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "retrying 2 errored case(s) (retry 1 of 2)" in done.stdout
    assert "retrying 1 errored case(s) (retry 2 of 2)" in done.stdout  # only "broken" still
    assert sorted(calls(project)) == ["broken"] * 3 + ["fine"] + ["shaky"] * 2
    (report,) = reports(project / "o2")
    results = json.loads(report.read_text())["results"]
    assert [(r["eval_id"], r["passed"], r["error"] is not None) for r in results] == [
        ("fine", True, False),
        ("shaky", True, False),  # its last result: the retry passed
        ("broken", False, True),
    ]
    assert "FAILED: 2/3 passed, 0 failed, 1 errored, 2 retried, pass rate" in done.stdout
    assert "retried" not in once.stdout  # nothing ran twice
    bad = in_process(project, *args, "--retry-errors", "-1")
    assert bad.returncode == 2 and "--retry-errors: must be 0 or more, not -1" in bad.stderr


def test_the_quiet_summary_line_counts_the_retried_cases(
    project: Path, in_process: InProcess
) -> None:
    args = counting_project(project, ["fine", "shaky", "broken"])
    done = in_process(project, *args, "-q", "--retry-errors", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    # shaky ran twice, broken three times: two cases retried, each counted once
    assert done.stdout.splitlines()[-1] == (
        "FAILED: 2/3 passed, 0 failed, 1 errored, 2 retried, pass rate 66.7% (threshold 100.0%)"
    )
    (project / "calls.txt").unlink()
    once = in_process(
        project, *args, "-q", "--retry-errors", "1", "--case", "shaky", "--case", "fine"
    )
    assert once.returncode == 0, once.stdout + once.stderr
    assert once.stdout.splitlines()[-1].startswith(
        "PASSED: 2/2 passed, 0 failed, 0 errored, 1 retried,"
    )


def test_the_json_summary_counts_the_retried_cases(project: Path, in_process: InProcess) -> None:
    args = counting_project(project, ["fine", "shaky", "broken"])
    done = in_process(project, *args, "--json", "--retry-errors", "2", "--output-dir", "o1")
    assert done.returncode == 1, done.stdout + done.stderr
    data = json.loads(done.stdout)
    # shaky ran twice, broken three times: two cases retried, each counted once
    assert (data["retried"], data["errored"], data["passed_cases"]) == (2, ["broken"], 2)
    once = in_process(project, *args, "--json", "--output-dir", "o2")
    assert json.loads(once.stdout)["retried"] == 0  # nothing ran twice


def test_resume_runs_only_what_the_journal_lacks_and_writes_one_complete_report(
    project: Path, in_process: InProcess
) -> None:
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.evaluation.results.journal import RunJournal

    ids = [f"c{i}" for i in range(5)]
    args = counting_project(project, ids)
    eval_set = EvalSet.from_file(project / "counting.evalset.json")
    journal = RunJournal(project / "killed.journal.jsonl")  # as a killed run left it
    journal.on_run_start(eval_set, eval_set.eval_cases)
    for eval_id in ("c0", "c2"):
        journal.on_case_end(
            EvalCaseResult(
                eval_id=eval_id,
                passed=True,
                actual_response="from the journal",
                metadata={"eval_set_id": "counting"},
            )
        )
    done = in_process(project, *args, "--resume", "killed.journal.jsonl", "--output-dir", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == (
        "resuming killed.journal.jsonl: 2 case(s) finished, 3 to run"
    )
    assert calls(project) == ["c1", "c3", "c4"]
    (report,) = reports(project / "out")
    data = json.loads(report.read_text())
    assert [r["eval_id"] for r in data["results"]] == ids  # in the eval set's order
    assert [r["actual_response"] for r in data["results"]][::2] == [
        "from the journal",
        "from the journal",
        "c4",
    ]
    assert not data["metadata"].get("partial")
    missing = in_process(project, *args, "--resume", "nope.jsonl", "--output-dir", "out")
    assert missing.returncode == 2 and "nope.jsonl: journal not found" in missing.stderr


def test_resume_of_a_journal_with_every_case_runs_no_agent(
    project: Path, in_process: InProcess
) -> None:
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.evaluation.results.journal import RunJournal

    args = counting_project(project, ["a", "b"])
    eval_set = EvalSet.from_file(project / "counting.evalset.json")
    journal = RunJournal(project / "all.journal.jsonl")
    journal.on_run_start(eval_set, eval_set.eval_cases)
    for eval_id in ("a", "b"):
        result = EvalCaseResult(eval_id=eval_id, passed=True, metadata={"eval_set_id": "counting"})
        journal.on_case_end(result)
    done = in_process(project, *args, "--resume", "all.journal.jsonl", "--output-dir", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 case(s) finished, 0 to run" in done.stdout
    assert not (project / "calls.txt").exists()
    assert case_ids(reports(project / "out")[0]) == ["a", "b"]


def test_an_o_file_that_cannot_be_written_fails_the_run(
    project: Path, in_process: InProcess
) -> None:
    (project / "afile").write_text("a file, not a folder")
    args = ["--agent", AGENT, "evals", "--tags", "smoke", "--output-dir", "out", "-q"]
    done = in_process(project, "run", *args, "-o", "afile/cases.csv", "-o", "ok.csv")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "report -o afile/cases.csv failed" in done.stderr
    assert (project / "ok.csv").is_file() and len(reports(project / "out")) == 1


def test_run_help_lists_the_new_flags(project: Path, in_process: InProcess) -> None:
    run_help = in_process(project, "run", "--help").stdout
    for flag in ("--repeat", "--pass-rule", "-o FILE", "--json", "--error-exit-code", "--limit",
                 "--sample", "--seed", "--max-cost", "--retry-errors", "--resume"):  # fmt: skip
        assert flag in run_help, flag


PRICED_AGENT = """
from pathlib import Path

async def agent(message, trace):
    # every call costs $1 (1,000 input tokens at $1,000 a million) and is counted in calls.txt
    calls = Path("calls.txt")
    calls.write_text((calls.read_text() if calls.exists() else "") + message + "\\n")
    trace.node("MAIN", response=message, tokens={"input_tokens": 1000, "output_tokens": 0})
    if message == "broken":
        raise ConnectionError("always down")
    return message
"""


def priced_project(project: Path, ids: list[str]) -> list[str]:
    (project / "priced_agent.py").write_text(PRICED_AGENT)
    (project / "priced.json").write_text(json.dumps({**PRICED, "prices": {
        "agent-model": {"input": 1000, "output": 1000}}}))  # fmt: skip
    EvalSet(eval_set_id="priced", eval_cases=[EvalCase.single_turn(i, i, i) for i in ids]).to_file(
        project / "priced.evalset.json"
    )
    agent = ["--agent", "priced_agent:agent", "--config", "priced.json", "--concurrency", "1"]
    return ["run", *agent, "priced.evalset.json", "--no-html", "--json", "--output-dir", "out"]


def test_max_cost_is_one_budget_over_the_retry_passes_and_the_cost_counts_every_attempt(
    project: Path, in_process: InProcess
) -> None:
    """#30: each --retry-errors pass had a fresh budget ($6 spent under --max-cost 2.5) and
    the report counted only each case's last attempt."""
    args = priced_project(project, ["fine", "broken"])
    done = in_process(project, *args, "--retry-errors", "4", "--max-cost", "3.5")
    assert done.returncode == 1, done.stdout + done.stderr
    # $2 spent by the first pass; one retry fits in $3.5, a second would pass it
    assert calls(project) == ["fine", "broken", "broken"]
    assert "not retrying 1 errored case(s): $3.0000 of max_cost $3.5 spent" in done.stderr
    summary = json.loads(done.stdout)
    assert summary["cost_usd"] == 3.0  # every attempt
    (report,) = reports(project / "out")
    broken = json.loads(report.read_text())["results"][1]
    assert broken["cost_usd"] == 2.0 and broken["metadata"]["earlier_attempts_cost_usd"] == 1.0


def test_max_cost_of_a_resumed_run_counts_what_its_journal_spent_and_keeps_its_stop(
    project: Path, in_process: InProcess
) -> None:
    """#30: --resume ignored what the journal's cases spent, dropped the budget's stop and
    exited 0 with cases never run."""
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.evaluation.results.journal import RunJournal

    ids = [f"c{i}" for i in range(5)]
    args = priced_project(project, ids)
    eval_set = EvalSet.from_file(project / "priced.evalset.json")
    journal = RunJournal(project / "killed.journal.jsonl")
    journal.on_run_start(eval_set, eval_set.eval_cases)
    for eval_id in ("c0", "c1"):  # $2 spent before the kill
        result = EvalCaseResult(
            eval_id=eval_id, passed=True, cost_usd=1.0, metadata={"eval_set_id": "priced"}
        )
        journal.on_case_end(result)
    done = in_process(project, *args, "--resume", "killed.journal.jsonl", "--max-cost", "4.5")
    assert done.returncode == 1, done.stdout + done.stderr
    assert calls(project) == ["c2", "c3"]  # $4 spent: a fifth case would pass $4.5
    summary = json.loads(done.stdout)
    assert summary["stopped_by"] == "max_cost" and summary["not_run"] == ["c4"]
    assert summary["incomplete"] == "stopped by max_cost" and summary["cost_usd"] == 4.0
    (project / "calls.txt").unlink()
    spent = in_process(project, *args, "--resume", "killed.journal.jsonl", "--max-cost", "2.5")
    assert spent.returncode == 1, spent.stdout + spent.stderr
    assert not (project / "calls.txt").exists()  # the journal's $2 leave no room for a case
    assert "not running the 3 case(s) left: $2.0000 of max_cost $2.5 spent" in spent.stderr
    summary = json.loads(spent.stdout)
    assert summary["not_run"] == ["c2", "c3", "c4"] and summary["partial"] is True


def test_the_run_views_resume_command_runs_the_cases_of_any_of_its_tags(
    project: Path, in_process: InProcess
) -> None:
    """The run view's ``#session #chit-chat`` means either tag; its printed command runs
    the same cases (``--tags`` alone means every tag: no case has both)."""
    import shlex

    from tenxeval_tui.evaluation.dataset.selection import CaseSelection
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.evaluation.results.journal import RunJournal
    from tenxeval_tui.runs.plan import RunPlan
    from tenxeval_tui.runs.resume import plan_resume_command

    path = project / "evals" / "plain.evalset.json"
    selection = CaseSelection(tags=("session", "chit-chat"), every_tag=False)
    plan = RunPlan(
        agent=AGENT,
        eval_sets=[path],
        selection=selection,
        output_dir=project / "out",
        journal=project / "out" / ".journal" / "run-1.jsonl",
    )
    eval_set = EvalSet.from_file(path)
    chosen = selection.cases(eval_set.eval_cases)
    assert [c.eval_id for c in chosen] == ["greeting", "off_topic"]
    assert plan.journal is not None
    plan.journal.parent.mkdir(parents=True)
    journal = RunJournal(plan.journal)  # the view stopped after its first case
    journal.on_run_start(eval_set, chosen)
    result = EvalCaseResult(
        eval_id="greeting", passed=True, metadata={"eval_set_id": eval_set.eval_set_id}
    )
    journal.on_case_end(result)
    command = plan_resume_command(plan, project)
    assert command is not None
    program, *args = shlex.split(command)
    assert program == "tenxeval-tui"
    done = in_process(project, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 case(s) finished, 1 to run" in done.stdout
    assert case_ids(reports(project / "out")[0]) == ["greeting", "off_topic"]
    # one tag: the same either way, and the command stays as it was
    one = plan.model_copy(update={"selection": CaseSelection(tags=("smoke",), every_tag=False)})
    assert "--any-tag" not in (plan_resume_command(one, project) or "")


def test_any_tag_runs_the_cases_carrying_one_of_the_tags(
    project: Path, in_process: InProcess
) -> None:
    common = ["run", "--agent", AGENT, "evals", "--tags", "session,chit-chat", "-q"]
    every = in_process(project, *common, "--output-dir", "every")
    assert every.returncode == 2 and "no case matches --tags/--case" in every.stderr
    anyone = in_process(project, *common, "--any-tag", "--output-dir", "any")
    assert anyone.returncode == 0, anyone.stdout + anyone.stderr
    assert case_ids(reports(project / "any")[0]) == ["greeting", "off_topic"]
    alone = in_process(project, "run", "--agent", AGENT, "evals", "--any-tag")
    assert alone.returncode == 2 and "--any-tag: no --tags given" in alone.stderr
