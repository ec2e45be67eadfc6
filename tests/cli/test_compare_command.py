"""`tenxeval-tui compare`: its output and its exit codes. The first test goes through the
real console script, as does ``--help`` (what it imports); the rest run in-process through
its entry point (``in_process``), the same parsing and output without a new Python."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import InProcess, Outcome
from tests.report_samples import current_report, write_reports
from tests.waiting import scaled

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"

Run = Callable[..., Outcome]


def script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )


@pytest.fixture
def run(in_process: InProcess, tmp_path: Path) -> Run:
    """``tenxeval-tui ARGS`` in-process, from the test's own folder."""
    return lambda *args: in_process(tmp_path, *map(str, args))


def test_regression_exits_1_and_prints_the_summary(tmp_path: Path) -> None:
    base, cur = write_reports(tmp_path)
    done = script("compare", base, cur)
    assert done.returncode == 1, done.stderr
    assert "1 regressed, 1 fixed, 1 new, 1 removed" in done.stdout
    assert "paris (Paris weather): passed -> failed" in done.stdout
    assert "rouge_match: 0.76 -> 0.62 (-0.14)" in done.stdout


def test_no_regression_exits_0(tmp_path: Path, run: Run) -> None:
    base, cur = write_reports(tmp_path)
    # without paris (the one regression) nothing that passed before fails now
    improved = current_report()
    improved.results = [r for r in improved.results if r.eval_id != "paris"]
    improved.to_file(cur)
    done = run("compare", cur, cur)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 regressed" in done.stdout
    assert run("compare", base, cur).returncode == 0


def test_two_different_eval_sets_are_compared_with_a_visible_warning(
    tmp_path: Path, run: Run
) -> None:
    base, cur = write_reports(tmp_path)
    other = current_report()
    other.eval_set_id = "another-set"
    for result in other.results:
        result.metadata.pop("eval_set_id", None)
    other.to_file(cur)
    done = run("compare", base, cur)
    assert "warning:" in done.stderr and "different eval sets" in done.stderr
    assert done.stdout.startswith("⚠ different eval sets: baseline 'weather-agent', current ")
    as_json = run("compare", "--json", base, cur)
    assert "different eval sets" in as_json.stderr  # said where a script's reader sees it
    same = run("compare", *write_reports(tmp_path / "same"))
    assert "different eval sets" not in same.stdout + same.stderr


def test_json_output_is_the_comparison(tmp_path: Path, run: Run) -> None:
    base, cur = write_reports(tmp_path)
    done = run("compare", "--json", base, cur)
    data = json.loads(done.stdout)
    assert done.returncode == 1
    assert [c["eval_id"] for c in data["cases"] if c["change"] == "regressed"] == ["paris"]


def test_unreadable_file_exits_2_naming_file_line_and_column(tmp_path: Path, run: Run) -> None:
    base, _ = write_reports(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "eval_set_id": "x",\n  "results": [\n    {"eval_id": }\n  ]\n}')
    done = run("compare", base, bad)
    assert done.returncode == 2
    assert f"{bad}:4:17" in done.stderr
    assert "Traceback" not in done.stderr
    missing = run("compare", tmp_path / "nope.json", base)
    assert missing.returncode == 2
    assert "nope.json" in missing.stderr and "Traceback" not in missing.stderr


def test_help_lists_compare_without_importing_textual() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tenxeval_tui.cli import main\n"
            "try:\n    main(['compare', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('textual' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "BASELINE" in done.stdout and "`previous` / `latest`" in done.stdout
    assert done.stdout.strip().endswith("False")


def test_an_eval_set_is_no_report(tmp_path: Path, run: Run) -> None:
    base, _ = write_reports(tmp_path)
    eval_set = tmp_path / "weather.evalset.json"
    eval_set.write_text('{"eval_set_id": "weather", "eval_cases": []}')
    done = run("compare", base, eval_set)
    assert done.returncode == 2
    assert f"{eval_set}:1:1: not a report: no 'results' (an eval set" in done.stderr


def test_previous_and_latest_name_an_eval_sets_two_newest_reports(tmp_path: Path, run: Run) -> None:
    base, cur = write_reports(tmp_path / "out")
    other = current_report()
    other.eval_set_id = "other-set"
    other.to_file(tmp_path / "out" / "other-set_20260521_000000.json")  # one report only
    by_name = run("compare", base, cur)
    by_word = run("compare", "previous", "latest", "--output-dir", tmp_path / "out")
    assert by_word.returncode == by_name.returncode == 1
    assert by_word.stdout == by_name.stdout  # the set with one report is left out
    mixed = run("compare", base, "latest", "--output-dir", tmp_path / "out")
    assert mixed.stdout == by_name.stdout
    # the words in the other order compare the newer run against the older one
    backwards = run("compare", "latest", "previous", "--output-dir", tmp_path / "out")
    assert "paris (Paris weather): failed -> passed" in backwards.stdout


def test_previous_without_two_reports_exits_2_saying_why(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "out"
    out.mkdir()
    done = run("compare", "previous", "latest", "--output-dir", out)
    assert done.returncode == 2
    assert f"{out}: no readable JSON reports" in done.stderr
    current_report().to_file(out / "one.json")
    done = run("compare", "previous", "latest", "--eval-set", "weather-agent", "--output-dir", out)
    assert done.returncode == 2
    assert "has 1 report(s), so there is no 'previous' one" in done.stderr
    assert "Traceback" not in done.stderr


def test_previous_and_latest_default_to_the_projects_output_dir(tmp_path: Path, run: Run) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tenxeval]\noutput_dir = "reports"\n')
    base, cur = write_reports(tmp_path / "reports")
    done = run("compare", "previous", "latest")  # in the project's folder
    assert done.returncode == 1, done.stderr
    assert done.stdout == run("compare", base, cur).stdout


def test_a_partial_or_empty_report_is_warned_about_never_compared_silently(
    tmp_path: Path, run: Run
) -> None:
    """#29: a filtered run's empty report made `compare previous latest` print
    `100.0% -> 0.0% ... removed` and nothing else; an empty or partial side is said."""
    from tenxeval_tui.evaluation.eval_result import EvalReport

    base, cur = write_reports(tmp_path)
    empty = tmp_path / "weather-agent_20260521_142301.json"  # the newest: `latest`
    EvalReport.create("weather-agent", []).to_file(empty)
    done = run("compare", "previous", "latest", "--output-dir", tmp_path)
    assert (
        f"warning: the current report {empty} holds no case: every case of the other report "
        "shows as new or removed"
    ) in done.stderr, done.stderr
    assert "warning: the baseline report" not in done.stderr
    partial = current_report()
    partial.metadata["partial"] = True
    partial.to_file(cur)
    done = run("compare", "--json", base, cur)
    assert f"warning: the current report {cur} is partial (its run did not finish)" in done.stderr
    assert json.loads(done.stdout)["cases"]  # the comparison is still made, and said
    quiet = run("compare", base, base)
    assert "warning" not in quiet.stderr


def test_a_missing_report_argument_names_only_the_required_ones(run: Run) -> None:
    done = run("compare", "only.json")
    assert done.returncode == 2
    assert "the following arguments are required: CURRENT\n" in done.stderr  # REPORT is optional
