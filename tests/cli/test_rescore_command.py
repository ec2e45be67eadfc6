"""`tenxeval-tui rescore`: a finished run scored again without its agent. The runs, and
each rescore but the first test's (through the real console script), go in-process through
the console script's entry point (``in_process``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import InProcess

from .test_run import AGENT, cli, reports


def scores(report_file: Path) -> dict[str, dict[str, float]]:
    data = json.loads(report_file.read_text())
    return {
        r["eval_id"]: {c["criterion"]: c["score"] for c in r["criterion_results"]}
        for r in data["results"]
    }


def run_once(project: Path, in_process: InProcess) -> Path:
    done = in_process(project, "run", "evals", "--agent", AGENT, "--no-html", "--output-dir", "out")
    assert done.returncode in (0, 1), done.stderr
    (report,) = reports(project / "out")
    return report


def test_rescore_with_the_reports_own_config_reproduces_it_without_the_agent(
    project: Path, in_process: InProcess
) -> None:
    report = run_once(project, in_process)
    (project / "support_agent.py").write_text("raise SystemExit('the agent must not run')\n")
    done = cli(project, "rescore", str(report), "-q")
    rescored = report.with_suffix(".rescored.json")
    assert done.returncode in (0, 1), done.stderr
    assert "without the agent (0 judge calls, 0 from the cache)" in done.stdout
    assert scores(rescored) == scores(report)
    passed = {r["eval_id"]: r["passed"] for r in json.loads(report.read_text())["results"]}
    again = {r["eval_id"]: r["passed"] for r in json.loads(rescored.read_text())["results"]}
    assert again == passed


def test_a_changed_threshold_moves_exactly_the_cases_it_reaches(
    project: Path, in_process: InProcess
) -> None:
    report = run_once(project, in_process)
    data = json.loads(report.read_text())
    old = scores(report)
    passed = {r["eval_id"]: r["passed"] for r in data["results"]}
    # Lower the response match threshold: a case that failed on it alone now passes.
    config = data["config_used"]
    config["criteria"]["response_match"]["threshold"] = 0.2
    (project / "lenient.json").write_text(json.dumps(config))
    reached = {
        case
        for case, s in old.items()
        if not passed[case]
        and s  # an errored case has no scores and stays errored
        and all(v >= 1.0 for name, v in s.items() if name != "response_match_score")
        and s.get("response_match_score", 0.0) >= 0.2
    }
    assert reached, "the sample has a case failing on its reply alone"
    out = project / "lenient_report.json"
    done = in_process(project, "rescore", str(report), "--config", "lenient.json", "-o", str(out))
    assert done.returncode == 1, done.stderr  # the errored case still errors
    now = {r["eval_id"]: r["passed"] for r in json.loads(out.read_text())["results"]}
    assert {case for case in now if now[case] != passed[case]} == reached
    assert scores(out) == old  # the scores stay; only the verdicts moved
    assert in_process(project, "rescore", str(report), "-o", str(project / "r.csv")).returncode == 1
    assert "response_match_score" in (project / "r.csv").read_text()


def test_bad_inputs_exit_2_naming_what_is_wrong(project: Path, in_process: InProcess) -> None:
    report = run_once(project, in_process)
    bad_suffix = in_process(project, "rescore", str(report), "-o", "out.txt")
    assert bad_suffix.returncode == 2 and "out.txt" in bad_suffix.stderr
    assert not (project / "out.txt").exists()
    missing = in_process(project, "rescore", "nope.json")
    assert missing.returncode == 2
    assert missing.stderr == "tenxeval-tui rescore: nope.json: no such file\n"  # named once
    config = in_process(project, "rescore", str(report), "--config", "none.json")
    assert config.stderr == "tenxeval-tui rescore: none.json: no such file\n"
    preset = in_process(project, "rescore", str(report), "--preset", "no_such")
    assert preset.returncode == 2 and "unknown preset 'no_such'" in preset.stderr
    for done in (bad_suffix, missing, config, preset):
        assert "Traceback" not in done.stderr
