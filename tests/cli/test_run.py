"""`tenxeval-tui run`, `validate` and `--help`, through the real console script in a subprocess.

Where a test's subject is what a command writes, prints or exits with (combined reports,
settings, reports that cannot be written, the config and metadata warnings, validate's
places, a refused resume), it goes through the console script's entry point in this process
(``in_process``, ``tests/cli/conftest.py``); what a process shows (exit codes through the
script, Ctrl-C, a closed pipe, what --help imports, watch mode) keeps the real script."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from junitparser import JUnitXml

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tests.cli.conftest import InProcess
from tests.cli.watching import Watch
from tests.conftest import SampleRun
from tests.waiting import scaled, wait_sync

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"
AGENT = "support_agent:support_agent"


def cli(
    cwd: Path, *args: str, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=scaled(timeout),
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})},
    )


def reports(folder: Path, suffix: str = ".json") -> list[Path]:
    return sorted(p for p in folder.glob(f"*{suffix}") if not p.name.endswith("_junit.xml"))


def case_ids(report_file: Path) -> list[str]:
    return [r["eval_id"] for r in json.loads(report_file.read_text())["results"]]


def test_exit_0_when_every_selected_case_passes_with_tag_filter(project: Path) -> None:
    done = cli(project, "run", "--agent", AGENT, "evals", "--tags", "smoke", "--output-dir", "out")
    assert done.returncode == 0, done.stderr
    (report,) = reports(project / "out")
    assert sorted(case_ids(report)) == ["greeting", "order_a100"]
    assert "PASSED: 2/2 passed" in done.stdout
    # Not a terminal: one plain line per case, for CI logs.
    assert re.search(r"^\[\d/2\] PASS +plain_agent/order_a100 \(", done.stdout, re.M)
    assert (project / "out" / report.name.replace(".json", ".html")).is_file()


def test_exit_1_on_failed_or_errored_cases_and_threshold(project: Path) -> None:
    full = cli(project, "run", "--agent", AGENT, "evals/plain.evalset.json", "--output-dir", "o1")
    assert full.returncode == 1
    assert "FAILED: 7/9 passed, 1 failed, 1 errored" in full.stdout
    assert full.stdout.count("FAILED") == 1, full.stdout  # #29: the verdict is said once
    # #29: both times, labelled (the sum of the cases' times is no wall time)
    assert re.search(r" wall \d+\.\ds, case time \d+\.\ds ", full.stdout), full.stdout
    assert re.search(r"ERROR +plain_agent/service_outage .*ServiceUnavailable", full.stdout)
    # Failed but not errored: the threshold decides (the rule for every combination of
    # failed, errored and threshold: test_run_flags.py's exit-code test, without a process).
    cases = ["--case", "wrong_status", "--case", "order_a100", "--output-dir", "o3", "-q"]
    met = cli(project, "run", "--agent", AGENT, "evals", *cases, "--threshold", "0.5")
    assert met.returncode == 0, met.stdout + met.stderr
    assert (
        "PASSED: 1/2 passed, 1 failed, 0 errored, pass rate 50.0% (threshold 50.0%)" in met.stdout
    )


def test_several_files_make_one_combined_report_and_junit(
    project: Path, in_process: InProcess
) -> None:
    other = EvalSet.from_file(project / "evals/plain.evalset.json")
    other.eval_set_id = "second"
    other.eval_cases = [c for c in other.eval_cases if c.eval_id in {"order_a200", "refund_a300"}]
    for case in other.eval_cases:
        case.eval_id += "_again"
    other.to_file(project / "evals/second.evalset.json")
    done = in_process(
        project, "run", "--agent", AGENT, "evals", "--case", "order_a100", "--case",
        "order_a200_again", "--case", "refund_a300_again", "--junit", "--no-html",
        "--output-dir", "out",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = reports(project / "out")
    data = json.loads(report.read_text())
    assert data["eval_set_id"] == "combined_eval"
    assert report.name.startswith("combined_eval_")
    assert data["summary"]["total_cases"] == 3
    assert data["metadata"]["eval_set_ids"] == ["plain_agent", "second"]
    assert not list((project / "out").glob("*.html"))
    (junit_file,) = (project / "out").glob("*_junit.xml")
    junit = JUnitXml.fromfile(str(junit_file))
    assert sum(suite.tests for suite in junit) == 3
    assert sum(suite.failures + suite.errors for suite in junit) == 0


def test_settings_from_pyproject_and_flags_override_them(
    project: Path, in_process: InProcess
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "support_agent:support_agent"\n'
        'eval_sets = ["evals/plain.evalset.json"]\noutput_dir = "from_settings"\n'
    )
    done = in_process(project, "run", "--tags", "smoke", "-q")
    assert done.returncode == 0, done.stderr
    assert len(reports(project / "from_settings")) == 1
    flagged = in_process(project, "run", "--tags", "smoke", "-q", "--output-dir", "from_flag")
    assert flagged.returncode == 0
    assert len(reports(project / "from_flag")) == 1
    assert len(reports(project / "from_settings")) == 1


def test_ten_x_graph_agent_from_the_project_folder(tmp_path: Path) -> None:
    done = cli(
        ROOT, "run", "--agent", "sample_evals.weather_graph:build_graph",
        "sample_evals/weather_graph.evalset.json", "--tags", "smoke", "--preset", "tool_usage",
        "--concurrency", "1", "--timeout", "30", "--output-dir", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(reports(tmp_path)[0].read_text())
    assert sorted(case_ids(reports(tmp_path)[0])) == ["greeting", "paris_weather"]
    assert data["config_used"]["max_concurrency"] == 1
    assert data["config_used"]["timeout"] == 30
    # tool_usage checks args; strict() also needs a judge now, as in 10xGraph
    assert data["config_used"]["criteria"]["trajectory"]["check_args"] is True


def test_open_hands_the_html_report_to_the_browser(project: Path) -> None:
    record = project / "browser.sh"
    record.write_text('#!/bin/sh\necho "$1" > "$(dirname "$0")/opened.txt"\n')
    record.chmod(0o755)
    done = subprocess.run(
        [str(SCRIPT), "run", "--agent", AGENT, "evals", "--tags", "smoke", "--open", "-q"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**os.environ, "BROWSER": str(record)},
    )
    assert done.returncode == 0, done.stderr
    # the browser is started, not waited for: its file comes a moment after the run ends
    wait_sync((project / "opened.txt").exists, 10, "the browser handed the report")
    opened = (project / "opened.txt").read_text().strip()
    assert opened.startswith("file://") and opened.endswith(".html")


def test_open_with_no_browser_says_where_the_html_report_is(project: Path) -> None:
    """No browser to find (no $BROWSER, no display, none on the PATH: an ssh session)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")
    }
    env["PATH"] = str(SCRIPT.parent)
    done = subprocess.run(
        [str(SCRIPT), "run", "--agent", AGENT, "evals", "--tags", "smoke", "--open", "-q"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**env, "NO_COLOR": "1", "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    (html,) = reports(project / "eval_reports", ".html")
    assert (
        f"tenxeval-tui run: --open: no browser to open it in here; the HTML report is {html}"
        in done.stderr
    )


def test_an_eval_set_runs_with_the_agent_its_metadata_names(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    eval_set["metadata"]["agent"] = AGENT
    path.write_text(json.dumps(eval_set))
    done = cli(project, "run", "evals", "--tags", "smoke", "--output-dir", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    # An explicit --agent wins over the eval set's own.
    wrong = in_process(project, "run", "evals", "--agent", "nowhere:agent", "--output-dir", "out")
    assert wrong.returncode == 2 and "agent 'nowhere:agent'" in wrong.stderr
    eval_set["metadata"]["agent"] = "not a spec"
    path.write_text(json.dumps(eval_set))
    bad = in_process(project, "run", "evals", "--output-dir", "out")
    assert bad.returncode == 2 and "agent 'not a spec'" in bad.stderr, bad.stderr


def test_the_sample_eval_sets_each_run_with_their_own_agent(sample_evals_run: SampleRun) -> None:
    summary = sample_evals_run.report["summary"]
    # The weather and plain agent sets each have one case failing on purpose and one whose
    # agent raises; the 5 cases of support_tools pass on the default criteria (its failing
    # case fails on tool_end_state, which only its own config enables).
    assert (summary["total_cases"], summary["failed_cases"], summary["error_cases"]) == (23, 2, 2)
    counted = (summary["passed_cases"], summary["failed_cases"], summary["error_cases"])
    assert sample_evals_run.counts() == counted  # as the run view's tests count them
    assert sample_evals_run.returncode == 1, sample_evals_run.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "support_agent", "evals"], r"agent 'support_agent': expected MODULE:ATTR"),
        (
            ["--agent", "nowhere:agent", "evals"],
            r"agent 'nowhere:agent': module 'nowhere' not found",
        ),
        (
            ["--agent", "support_agent:nothing", "evals"],
            r"'support_agent' has no attribute 'nothing'",
        ),
        (["--agent", "support_agent:ORDERS", "evals"], r"got a dict object; expected a 10xGraph"),
        (["--agent", AGENT, "missing.evalset.json"], r"missing.evalset.json: file not found"),
        (["--agent", AGENT, "evals/broken.evalset.json"], r"broken.evalset.json:3:\d+: "),
        (["--agent", AGENT, "evals", "--preset", "nope"], r"unknown preset 'nope'"),
        (["--agent", AGENT, "evals", "--config", "bad.json"], r"bad.json:1:\d+: "),
        (["--agent", AGENT, "evals", "--case", "nope"], r"--case: no case 'nope'"),
        (["--agent", AGENT, "evals", "--tags", "nope"], r"no case matches --tags/--case"),
        (["evals"], r"no agent for eval set .*: name one as MODULE:ATTR \(--agent"),
        (["--agent", AGENT, "evals", "--threshold", "2"], r"--threshold: 2.0 is not between"),
        (["--agent", AGENT, "--preset", "strict", "--config", "x"], r"not allowed with argument"),
        (["--agent", AGENT, "evals", "--timeout", "nan"], r"--timeout: must be a number"),
        (["--agent", AGENT, "evals", "--tags", " , "], r"--tags: no tag given"),
        (
            ["--agent", AGENT, "evals", "--config", "crit.json"],
            r"crit.json: unknown criterion 'nope'",
        ),
        (
            ["--agent", AGENT, "evals", "--preset", "response_quality"],
            r"--preset response_quality: final_response_match_v2: no judge model",
        ),
        (
            ["--agent", AGENT, "evals", "--output-dir", "afile/reports"],
            r"afile/reports: cannot write reports here: Not a directory",
        ),
        (["--agent", AGENT, "empty.evalset.json"], r"empty.evalset.json: no cases to run"),
        (["--agent", AGENT, "evals", "--threshold", "x"], r"^usage: tenxeval-tui run \["),
    ],
)
def test_usage_and_configuration_errors_exit_2_without_traceback(
    project: Path, in_process: InProcess, args: list[str], message: str
) -> None:
    # Through the console script's entry point in this process (the same checks, no new
    # Python each time); the next test goes through the console script itself.
    write_bad_inputs(project, keep_broken_set="evals" not in args or "broken" in " ".join(args))
    env = {"TENXEVAL_JUDGE_MODEL": "", "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    done = in_process(project, "run", *args, env=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(message, done.stderr, re.MULTILINE), done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def write_bad_inputs(project: Path, *, keep_broken_set: bool = True) -> None:
    """The broken eval set, configs, a file in the way and an empty eval set of the table."""
    (project / "evals/broken.evalset.json").write_text(
        '{\n  "eval_set_id": "b",\n  "eval_cases": 3\n}'
    )
    (project / "bad.json").write_text("{not json")
    (project / "crit.json").write_text('{"criteria": {"nope": {"threshold": 1}}}')
    (project / "afile").write_text("a file, not a folder")
    (project / "empty.evalset.json").write_text('{"eval_set_id": "e", "eval_cases": []}')
    if not keep_broken_set:
        (project / "evals/broken.evalset.json").unlink()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", AGENT, "evals", "--threshold", "x"], r"^usage: tenxeval-tui run \["),
        (["--agent", AGENT, "evals/broken.evalset.json"], r"broken.evalset.json:3:\d+: "),
        (["--agent", "support_agent:ORDERS", "evals"], r"got a dict object; expected a 10xGraph"),
    ],
)
def test_the_console_script_exits_2_without_traceback_on_usage_and_configuration_errors(
    project: Path, args: list[str], message: str
) -> None:
    # One of each kind through the real console script: argparse's, a file's, the agent's.
    write_bad_inputs(project, keep_broken_set="broken" in " ".join(args))
    done = cli(project, "run", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(message, done.stderr, re.MULTILINE), done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_reports_that_cannot_be_written_fail_the_run(project: Path, in_process: InProcess) -> None:
    # names without a timestamp, and the JSON report's name taken by a folder
    (project / "cfg.json").write_text('{"reporter": {"timestamp_files": false}}')
    eval_set_id = json.loads((project / "evals/plain.evalset.json").read_text())["eval_set_id"]
    (project / "out" / f"{eval_set_id}.json").mkdir(parents=True)
    args = ["--agent", AGENT, "evals", "--tags", "smoke", "--config", "cfg.json"]
    done = in_process(project, "run", *args, "--output-dir", "out")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "report JSONReporter failed" in done.stderr
    assert "some report files were not written" in done.stderr
    assert (project / "out" / f"{eval_set_id}.html").is_file()  # the others are written
    done = in_process(project, "run", *args, "--output-dir", "elsewhere")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bad_agent_in_eval_set_metadata_names_the_file(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    eval_set["metadata"]["agent"] = "nomodule_here:agent"
    path.write_text(json.dumps(eval_set))
    done = in_process(project, "run", "evals")
    assert done.returncode == 2
    assert re.search(r"evals/plain.evalset.json: metadata.agent: .*nomodule_here", done.stderr)


def test_a_config_without_criteria_is_warned_about(project: Path, in_process: InProcess) -> None:
    (project / "typo.json").write_text('{"critera": {"exact_match": {}}}')
    args = ["--agent", AGENT, "evals", "--tags", "smoke", "--output-dir", "out"]
    done = in_process(project, "run", *args, "--config", "typo.json")
    assert "typo.json: no criteria enabled" in done.stderr
    assert "no criteria enabled" not in in_process(project, "run", *args).stderr


def test_settings_may_name_a_folder_of_eval_sets(project: Path, in_process: InProcess) -> None:
    (project / "pyproject.toml").write_text(
        f'[tool.tenxeval]\nagent = "{AGENT}"\neval_sets = ["evals"]\noutput_dir = "out"\n'
    )
    done = in_process(project, "run", "--tags", "smoke")
    assert done.returncode == 0, done.stderr
    assert sorted(case_ids(reports(project / "out")[0])) == ["greeting", "order_a100"]


def test_a_closed_stdout_stops_quietly_and_the_reports_are_still_written(project: Path) -> None:
    command = f"{SCRIPT} run --agent {AGENT} evals --output-dir out | head -c 1"
    done = subprocess.run(
        ["bash", "-c", command], cwd=project, capture_output=True, text=True, timeout=scaled(120)
    )
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert len(reports(project / "out")) == 1
    validate = f"{SCRIPT} validate evals evals evals evals | head -c 1"
    done = subprocess.run(
        ["bash", "-c", validate], cwd=project, capture_output=True, text=True, timeout=scaled(60)
    )
    assert "Traceback" not in done.stderr, done.stderr


def test_validate_prints_file_line_column_for_every_problem(
    project: Path, in_process: InProcess
) -> None:
    bad = project / "evals/bad.evalset.json"
    bad.write_text(
        '{\n  "eval_set_id": "b",\n  "eval_cases": [\n    {"eval_id": 1},\n'
        '    {"eval_id": "x", "conversation": "nope"}\n  ]\n}\n'
    )
    done = in_process(project, "validate", "evals")
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if line.startswith("evals/bad.evalset.json")]
    assert [line.split(":")[1:3] for line in lines] == [["4", "17"], ["5", "38"]], lines
    assert "eval_cases[0].eval_id: Input should be a valid string" in lines[0]
    assert "evals/plain.evalset.json: ok" in done.stdout
    bad.unlink()
    assert in_process(project, "validate", "evals").returncode == 0


def test_help_imports_neither_textual_nor_tenxgraph_nor_the_agent(project: Path) -> None:
    for args in (["--help"], ["run", "--help"]):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", str(SCRIPT), *args],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=scaled(60),
        )
        assert done.returncode == 0
        imported = {
            line.rsplit("|", 1)[-1].strip()
            for line in done.stderr.splitlines()
            if line.startswith("import time:")
        }
        assert "tenxeval_tui.cli" in imported  # the measurement itself works
        top_level = {name.split(".")[0] for name in imported}
        assert not top_level & {"textual", "tenxgraph", "rich", "pydantic", "support_agent"}
    run_help = cli(project, "run", "--help").stdout
    for flag in ("--agent", "--config", "--preset", "--threshold", "--concurrency", "--timeout",
                 "--tags", "--case", "--output-dir", "--junit", "--no-html", "--open",
                 "--quiet", "--verbose", "--watch"):  # fmt: skip
        assert flag in run_help


@pytest.mark.slow
def test_watch_reruns_the_changed_case_then_everything_and_exits_130_on_ctrl_c(
    project: Path,
) -> None:
    shutil.copy(project / "evals/plain.evalset.json", project / "evals/other.evalset.json")
    other = EvalSet.from_file(project / "evals/other.evalset.json")
    other.eval_set_id = "other"
    other.to_file(project / "evals/other.evalset.json")
    watch = Watch(project, "--agent", AGENT, "evals", "--tags", "smoke", "--output-dir", "out")
    try:
        watch.wait_for(r"\[watch\] run 1 finished \(exit 0\)")
        assert len(reports(project / "out")) == 1
        assert "combined_eval" in reports(project / "out")[0].name
        edited = project / "evals/plain.evalset.json"
        data = json.loads(edited.read_text())
        data["eval_cases"][0]["name"] = "Renamed"
        watch.change(
            edited, json.dumps(data), r"plain.evalset.json changed \(modified order_a100\)"
        )
        watch.wait_for(r"\[watch\] rerunning plain.evalset.json: order_a100$")
        watch.wait_for(r"\[watch\] run 2 finished \(exit 0, 1 eval set\)")
        # Only the changed case reruns (greeting, also tagged smoke, is not run again).
        rerun = [p for p in reports(project / "out") if p.name.startswith("plain_agent_")]
        assert len(rerun) == 1 and case_ids(rerun[0]) == ["order_a100"]
        # Agent code changed: every eval set reruns, with the new code imported afresh.
        code = project / "support_agent.py"
        watch.change(
            code,
            code.read_text().replace("Hello {name}! How can I help with your order?", "Go away."),
            r"agent code changed: rerunning every eval set",
        )
        watch.wait_for(r"\[watch\] run 3 finished \(exit 1, 2 eval sets\)")
        assert watch.interrupt() == 130
        watch.wait_for(r"\[watch\] stopped", timeout=5)
    finally:
        watch.stop()


SLOW_AGENT = """
import asyncio

async def agent(message, trace):
    await asyncio.sleep(0.4)
    trace.node("MAIN", response=message)
    return message
"""


def _slow_project(project: Path) -> list[str]:
    """Eight cases of 0.4 s each, run one at a time: the command line that runs them."""
    (project / "slow_agent.py").write_text(SLOW_AGENT)
    EvalSet(
        eval_set_id="slow",
        eval_cases=[EvalCase.single_turn(f"c{i}", f"echo {i}", f"echo {i}") for i in range(8)],
    ).to_file(project / "slow.evalset.json")
    return [str(SCRIPT), "run", "--agent", "slow_agent:agent", "slow.evalset.json",
            "--concurrency", "1", "--output-dir", "out"]  # fmt: skip


def _stopped_after_first_case(
    project: Path, flags: list[str], stop: Callable[[subprocess.Popen[str]], None]
) -> tuple[int, str, str]:
    """The slow project run with ``flags``, ``stop`` called once its first case passed:
    the exit code, stdout and stderr (progress on stderr with ``--json``)."""
    child = subprocess.Popen(
        [*_slow_project(project), *flags],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        progress = child.stderr if "--json" in flags else child.stdout
        assert progress is not None
        first = progress.readline()
        assert re.match(r"\[1/8\] PASS +slow/c0 ", first), first
        stop(child)
        out, err = child.communicate(timeout=scaled(60))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, (first if progress is child.stdout else "") + out, err


def test_a_partial_report_never_exits_0_nor_passes_and_json_says_why(project: Path) -> None:
    """#30: the worker child stopped from outside (SIGTERM: an OOM watchdog, a CI job's
    timeout) writes a partial report of the cases that passed: exit 0 and PASSED before."""

    def stop_the_worker(child: subprocess.Popen[str]) -> None:
        (worker,) = Path(f"/proc/{child.pid}/task/{child.pid}/children").read_text().split()
        os.kill(int(worker), signal.SIGTERM)

    code, out, err = _stopped_after_first_case(project, ["--json"], stop_the_worker)
    assert code == 1, out + err
    assert "PASSED" not in err and "INCOMPLETE: " in err, err
    summary = json.loads(out)
    assert summary["partial"] is True and summary["exit_code"] == 1
    assert summary["incomplete"] == "the run did not finish"
    assert summary["failed_cases"] == summary["error_cases"] == 0  # what ran passed
    assert 1 <= summary["total_cases"] < 8


def test_resume_with_another_scoring_config_is_refused_saying_why(
    project: Path, in_process: InProcess
) -> None:
    """#30: --resume with another config scored the rest with it and the journal's cases
    with the first, in one report. Refused (exit 2, nothing runs); a change of how the run
    goes (concurrency, budget, timeout) is not a change of scoring."""
    strict = {"criteria": {"response_match_score": {"threshold": 0.9}}}
    lenient = {"criteria": {"response_match_score": {"threshold": 0.2}}}
    (project / "strict.json").write_text(json.dumps(strict))
    (project / "lenient.json").write_text(json.dumps(lenient))
    code, _, err = _stopped_after_first_case(
        project, ["--config", "strict.json"], lambda child: child.send_signal(signal.SIGINT)
    )
    assert code == 130, err
    resume = re.search(r"resume it with: (.+)", err)
    assert resume is not None, err
    argv = shlex.split(resume.group(1))[1:]
    journal = argv[-1]
    other = [a if a != "strict.json" else "lenient.json" for a in argv]
    refused = in_process(project, *other)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert (
        f"tenxeval-tui run: {journal}: its cases were scored with another config than this "
        "run's (they differ in criteria): resume with the config it ran with"
    ) in refused.stderr
    assert "resuming" not in refused.stdout  # nothing ran
    same = in_process(project, *argv, "--concurrency", "2", "--timeout", "30")
    assert same.returncode == 0, same.stdout + same.stderr
    resumed = max(reports(project / "out"), key=lambda p: json.loads(p.read_text())["timestamp"])
    data = json.loads(resumed.read_text())
    assert len(data["results"]) == 8 and not data["metadata"].get("partial")
    assert data["config_used"]["criteria"]["response_match"]["threshold"] == 0.9


def test_ctrl_c_exits_130_and_keeps_the_finished_cases(project: Path) -> None:
    code, out, err = _stopped_after_first_case(
        project, [], lambda child: child.send_signal(signal.SIGINT)
    )
    assert code == 130, err
    assert "interrupted: writing the report of the finished cases" in err
    # #29: an interrupted run never says PASSED, though every case that ran passed
    assert "PASSED" not in out, out
    assert out.splitlines()[-1].startswith("INCOMPLETE: "), out
    assert out.splitlines()[-1].endswith("; partial: interrupted"), out
    assert "Traceback" not in err
    (report,) = reports(project / "out")
    data = json.loads(report.read_text())
    assert data["metadata"]["partial"] is True
    assert 1 <= len(data["results"]) < 8
    assert all(r["passed"] for r in data["results"])
    # It says how to run the rest: the same command, resumed from the journal it kept.
    resume = re.search(r"resume it with: (.+)", err)
    assert resume is not None, err
    argv = shlex.split(resume.group(1))
    assert argv[:2] == ["tenxeval-tui", "run"] and argv[-2] == "--resume"
    assert (project / argv[-1]).is_file()
    resumed = subprocess.run(
        [str(SCRIPT), *argv[1:]], cwd=project, capture_output=True, text=True, timeout=scaled(120)
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(data['results'])} case(s) finished, {8 - len(data['results'])} to run" in (
        resumed.stdout
    )


def test_a_folder_run_leaves_out_the_eval_set_without_an_agent_naming_it(
    project: Path, in_process: InProcess
) -> None:
    """No agent given: the set naming its own runs; the one naming none is skipped, said
    with its file and what is missing. With none runnable the run stops, naming each."""
    named = EvalSet(
        eval_set_id="named",
        metadata={"agent": AGENT},
        eval_cases=[EvalCase.single_turn("hi", "Hello, Ada!", "Hello")],
    )
    named.to_file(project / "evals" / "named.evalset.json")
    done = in_process(project, "run", "evals", "--output-dir", "out", "--threshold", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "tenxeval-tui run: skipped evals/plain.evalset.json: no agent for eval set "
        "'plain_agent': name one as MODULE:ATTR (--agent" in done.stderr
    )
    (report,) = reports(project / "out")
    assert case_ids(report) == ["hi"]
    (project / "evals" / "named.evalset.json").unlink()
    none = in_process(project, "run", "evals", "--output-dir", "out2")
    assert none.returncode == 2
    assert "evals/plain.evalset.json: no agent for eval set 'plain_agent'" in none.stderr


def test_a_named_eval_set_without_an_agent_stops_the_run_before_any_case(
    project: Path, in_process: InProcess
) -> None:
    """A set named by its file was asked for: with no agent for it the run stops (exit 2,
    naming it) and nothing runs, though another named set has its own agent; the same
    set found by a folder scan is left out and the rest pass (exit 0)."""
    named = EvalSet(
        eval_set_id="named",
        metadata={"agent": AGENT},
        eval_cases=[EvalCase.single_turn("hi", "Hello, Ada!", "Hello")],
    )
    named.to_file(project / "evals" / "named.evalset.json")
    both = ("evals/named.evalset.json", "evals/plain.evalset.json")
    stopped = in_process(project, "run", *both, "--output-dir", "out", "--threshold", "0")
    assert stopped.returncode == 2, stopped.stdout + stopped.stderr
    assert "evals/plain.evalset.json: no agent for eval set 'plain_agent'" in stopped.stderr
    assert "named.evalset.json" not in stopped.stderr
    assert reports(project / "out") == []
    scanned = in_process(project, "run", "evals", "--output-dir", "out", "--threshold", "0")
    assert scanned.returncode == 0, scanned.stdout + scanned.stderr
