"""A `run --shard K/N` part holds some of the run's cases: history, trend and compare read it
as a selection (its ``metadata.shard`` mark), and the report `merge` makes of the parts as a
run of every case."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation import EvalReport
from tenxeval_tui.evaluation.analysis.compare import RunOutcome
from tenxeval_tui.evaluation.selection_marks import SelectionMark, selection_of
from tests.browsing.history.samples import write_run, write_series
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports

IDS = [f"c{i}" for i in range(10)]


def part(index: int, count: int = 3, total: int = 10) -> dict[str, object]:
    """The ``metadata.shard`` a part of a run of ``total`` cases carries (as runs.shards writes it)."""
    return {"shard": {"index": index, "count": count, "total": total, "run": "0123456789abcdef"}}


def test_a_part_is_a_selection_and_the_merge_of_the_parts_a_run_of_every_case(
    project: Path, in_process: InProcess
) -> None:
    run = ["run", "--agent", AGENT, "evals", "-q", "--no-html"]
    parts = []
    for k in (1, 2):
        done = in_process(project, *run, "--shard", f"{k}/2", "--output-dir", f"part{k}")
        assert done.returncode in (0, 1), done.stderr
        (written,) = reports(project / f"part{k}")
        report = EvalReport.from_file(written)
        assert selection_of(report.metadata) == SelectionMark("shard", None, 9, f"{k}/2")
        assert RunOutcome.of_report(report).selection == "shard " + f"{k}/2 of 9 cases"
        parts.append(written)
    merged = in_process(project, "merge", *map(str, parts), "-o", "merged.json", "-q")
    assert merged.returncode == 1, merged.stderr
    assert selection_of(json.loads((project / "merged.json").read_text())["metadata"]) is None
    # a part of a --tags run keeps the run's own mark, and says which part it is
    tagged = in_process(project, *run, "--tags", "smoke", "--shard", "1/2", "--output-dir", "t")
    assert tagged.returncode == 0, tagged.stderr
    (written,) = reports(project / "t")
    mark = selection_of(EvalReport.from_file(written).metadata)
    assert mark is not None and mark.text == "tags, 2 of 9 cases, shard 1/2"


def test_history_lists_the_parts_marked_and_trend_leaves_them_out(
    tmp_path: Path, in_process: InProcess
) -> None:
    folder = tmp_path / "reports"
    write_series(folder, ["PPPPPPPPFF"] * 8, IDS)
    # the parts of a ninth run, not merged: the last holds the two failing cases only
    write_run(folder, 8, dict(zip(IDS[:4], "PPPP", strict=True)), metadata=part(1))
    write_run(folder, 9, dict(zip(IDS[4:7], "PPP", strict=True)), metadata=part(2))
    write_run(folder, 10, {"c7": "F", "c8": "F", "c9": "F"}, metadata=part(3))
    trend = in_process(tmp_path, "trend", "reports", "--eval-set", "weather")
    assert trend.returncode == 0, trend.stdout  # before: the parts read as runs, 0% a drop
    assert "the last 8 complete run(s)" in trend.stdout
    shown = in_process(tmp_path, "history", "reports", "--eval-set", "weather")
    assert shown.returncode == 0, shown.stderr
    parts = [line for line in shown.stdout.splitlines() if "(selection: shard " in line]
    assert [p.split("(selection: ")[1] for p in parts] == [
        f"shard {k}/3 of 10 cases)" for k in (1, 2, 3)
    ]
    runs = json.loads(in_process(tmp_path, "history", "reports", "--json").stdout)
    marks = [run["selection"] for run in runs["eval_sets"][0]["runs"]]
    assert marks[-1] == {"by": "shard", "cases": None, "of": 10, "part": "3/3"}
    assert marks[0] is None


def test_compare_with_a_part_says_not_run_for_the_cases_of_the_other_parts(
    tmp_path: Path, in_process: InProcess
) -> None:
    folder = tmp_path / "reports"
    write_run(folder, 0, dict(zip(IDS, "PPPPPPPFFF", strict=True)))
    write_run(folder, 1, {"c7": "P", "c8": "F", "c9": "P"}, metadata=part(3))
    args = ["compare", "previous", "latest", "--eval-set", "weather", "--output-dir", "reports"]
    done = in_process(tmp_path, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 not run" in done.stdout and "0 removed" in done.stdout  # before: 7 removed
    assert "Pass rate over the 3 case(s) both runs ran: 0.0% -> 66.7%" in done.stdout
    assert "the current run is a selection (shard 3/3 of 10 cases)" in done.stdout
