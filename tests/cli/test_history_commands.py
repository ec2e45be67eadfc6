"""`history` and `trend` (the first test through the real console script, the rest in-process
through its entry point), on report folders written as `run` writes them (and on a real run's
reports, indexed as they land)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tenxeval_tui.browsing.history.index import INDEX_NAME
from tests.browsing.history.samples import write_run, write_series
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, cli
from tests.evaluation.provenance.test_git import git

IDS = ["london", "paris", "tokyo"]


def test_history_lists_runs_and_case_strips(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    write_series(folder, ["PPP", "PFP", "PFE", "PPE"], IDS, commit="ab" * 20, cost=0.03)
    write_run(folder, 9, {"x": "P"}, eval_set_id="other")
    done = cli(tmp_path, "history", "reports", "--eval-set", "weather")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Weather (weather): 4 run(s) in reports:"
    assert "pass rate" in lines[1] and "95% interval" in lines[1]
    run = lines[3].split()
    assert run[2:] == ["abababab", "2/3", "66.7%", "[20.8-93.9%]", "$0.0300", "2.0s"]
    assert "london" not in done.stdout  # passed in every run: counted
    assert "1 case(s) passed in every run shown" in done.stdout
    paris = next(line for line in lines if line.strip().startswith("Paris"))
    assert paris.split()[1] == "PFFP" and "last changed F->P in the run of" in paris
    assert "weather_0003.json" in paris and "abababab" in paris
    tokyo = next(line for line in lines if line.strip().startswith("Tokyo"))
    assert tokyo.split()[1] == "PPEE" and "P->E" in tokyo

    every = cli(tmp_path, "history", "reports", "--last", "2", "--all")
    assert "Other (other): 1 run(s)" in every.stdout
    assert "Weather (weather): 4 run(s) in reports, the last 2:" in every.stdout
    assert any(line.split()[:2] == ["London", "PP"] for line in every.stdout.splitlines())

    data = json.loads(cli(tmp_path, "history", "reports", "--case", "paris", "--json").stdout)
    (weather,) = data["eval_sets"]
    assert weather["eval_set_id"] == "weather" and len(weather["runs"]) == 4
    assert weather["runs"][1]["interval"][0] == pytest.approx(0.2077, abs=1e-3)
    assert weather["runs"][0]["git_commit"] == "ab" * 20
    (paris_json,) = weather["cases"]
    assert paris_json["marks"] == "PFFP"
    assert paris_json["last_change"]["from"] == "F" and paris_json["last_change"]["to"] == "P"
    assert (folder / INDEX_NAME).is_file()


def test_history_errors_name_what_is_missing(tmp_path: Path, in_process: InProcess) -> None:
    write_series(tmp_path / "reports", ["PPP"], IDS)
    missing = in_process(tmp_path, "history", "nowhere")
    assert missing.returncode == 2 and "nowhere: no such report folder" in missing.stderr
    unknown = in_process(tmp_path, "history", "reports", "--eval-set", "nope")
    assert (
        unknown.returncode == 2
        and "no runs of eval set 'nope' (eval sets: weather)" in unknown.stderr
    )
    case = in_process(tmp_path, "history", "reports", "--case", "nope")
    assert case.returncode == 2 and "no case 'nope'" in case.stderr
    (tmp_path / "empty").mkdir()
    empty = in_process(tmp_path, "history", "empty")
    assert empty.returncode == 0 and "no reports yet" in empty.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_runs_are_indexed_as_they_land_and_show_their_commit(
    project: Path, in_process: InProcess
) -> None:
    git(project, "init", "-q", "-b", "main")
    (project / ".gitignore").write_text("eval_reports/\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "first")
    commit = git(project, "rev-parse", "HEAD")
    run = ["run", "--agent", AGENT, "evals", "-q", "--output-dir", "eval_reports"]
    assert in_process(project, *run).returncode == 1  # the sample set fails a case
    index = project / "eval_reports" / INDEX_NAME
    assert not index.exists()  # no history looked at yet: no index made
    assert in_process(project, "history", "eval_reports").returncode == 0
    assert in_process(project, *run).returncode == 1
    with sqlite3.connect(index) as db:  # the second run was added by `run` itself
        files = [row[0] for row in db.execute("SELECT file FROM reports ORDER BY timestamp")]
        commits = {row[0] for row in db.execute("SELECT git_commit FROM reports")}
    assert len(files) == 2 and commits == {commit}
    shown = in_process(project, "history", "eval_reports", "--all")
    assert shown.returncode == 0, shown.stderr
    runs = [line.split() for line in shown.stdout.splitlines()[2:4]]
    assert [run[2:5] for run in runs] == [[commit[:8], "7/9", "77.8%"]] * 2
    assert "Order service outage (agent raises)   EE  never changed" in shown.stdout


def test_trend_trips_on_a_real_drop_and_names_where_it_began(
    tmp_path: Path, in_process: InProcess
) -> None:
    ids = [f"c{i}" for i in range(10)]
    columns = ["PPPPPPPPPF", "PPPPPPPPPP"] * 6 + ["PPPPPFFFFF"] * 4
    paths = write_series(tmp_path / "reports", columns, ids, commit="cd" * 20)
    done = in_process(tmp_path, "trend", "reports", "--eval-set", "weather", "--window", "16")
    assert done.returncode == 1, done.stderr
    assert "pass rate fell: 95.0% before -> 50.0% from the run of" in done.stdout
    assert paths[12].name in done.stdout and "cdcdcdcd" in done.stdout
    assert "cases that flipped there" in done.stdout and "c5 (F)" in done.stdout
    assert done.stdout.splitlines()[-1] == "DROP: the pass rate fell significantly"
    data = json.loads(
        in_process(tmp_path, "trend", "reports", "--eval-set", "weather", "--json").stdout
    )
    assert data["dropped"] is True and data["began"]["file"] == str(
        Path("reports") / paths[12].name
    )
    assert {c["eval_id"] for c in data["flipped"]} == {"c5", "c6", "c7", "c8", "c9"}
    assert data["p_value"] <= data["alpha"] == 0.05


def test_trend_passes_a_noisy_flat_series_and_says_when_it_cannot_tell(
    tmp_path: Path, in_process: InProcess
) -> None:
    ids = [f"c{i}" for i in range(10)]
    flat = ["PPPPPPPPPF", "PPPPPPPPPP", "PPPPPPPPFP", "PPPPPPPPPP"] * 5
    write_series(tmp_path / "flat", flat, ids)
    done = in_process(tmp_path, "trend", "flat", "--eval-set", "weather")
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1] == "OK: no significant drop"
    write_series(tmp_path / "few", ["PPPPPPPPPP", "FFFFFFFFFF"], ids)
    few = in_process(tmp_path, "trend", "few", "--eval-set", "weather")
    assert few.returncode == 0 and "too few runs to test: the test needs 5" in few.stdout
    bad = in_process(tmp_path, "trend", "few", "--eval-set", "nope")
    assert bad.returncode == 2 and "no runs of eval set 'nope'" in bad.stderr
    window = in_process(tmp_path, "trend", "few", "--eval-set", "weather", "--window", "2")
    assert window.returncode == 2 and "--window: at least 5 runs" in window.stderr
    need = in_process(tmp_path, "trend", "few")
    assert need.returncode == 2 and "--eval-set" in need.stderr
