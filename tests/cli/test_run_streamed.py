"""``run``'s worker reads its eval sets a case at a time (runs/streamed_run.py): its report
is the one a worker holding the cases makes, its provenance hashes the file as loading
does, and a case that cannot run stops the run before any case runs, in words, not a
traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.provenance.hashing import eval_set_sha256
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports


def _cases(report_file: Path) -> dict[str, tuple[Any, ...]]:
    data = json.loads(report_file.read_text())
    return {
        r["eval_id"]: (
            r["passed"],
            r["error"],
            r["actual_response"],
            [(c["criterion"], c["score"], c["passed"]) for c in r["criterion_results"]],
            r["metadata"].get("case_sha256"),
        )
        for r in data["results"]
    }


def test_a_streamed_run_reports_what_a_run_holding_its_cases_reports(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    streamed = in_process(project, "run", "--agent", AGENT, str(path), "--output-dir", "one")
    # --workers 2: the driver hands whole cases out (it loads the set), the same report
    whole = in_process(
        project, "run", "--agent", AGENT, str(path), "--output-dir", "two", "--workers", "2"
    )

    assert streamed.returncode == whole.returncode, streamed.stderr + whole.stderr
    (one,) = reports(project / "one")
    (two,) = reports(project / "two")
    assert _cases(one) == _cases(two)
    assert len(_cases(one)) == len(EvalSet.from_file(path).eval_cases)
    summary_one = json.loads(one.read_text())["summary"]
    summary_two = json.loads(two.read_text())["summary"]
    for key in ("total_cases", "passed_cases", "failed_cases", "error_cases", "criterion_stats"):
        assert summary_one[key] == summary_two[key]
    provenance = json.loads(one.read_text())["metadata"]["provenance"]
    assert provenance["eval_set_sha256"] == eval_set_sha256(EvalSet.from_file(path))


def test_a_case_with_a_bad_repeat_count_stops_the_run_before_any_case_runs(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    eval_set["eval_cases"][-1].setdefault("metadata", {})["repeats"] = "many"
    last = eval_set["eval_cases"][-1]["eval_id"]
    path.write_text(json.dumps(eval_set, indent=2))

    done = in_process(project, "run", "--agent", AGENT, str(path), "--output-dir", "out")

    assert done.returncode == 2, done.stdout + done.stderr
    assert f"case {last!r}: metadata['repeats'] must be a whole number" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (project / "out").exists() or not reports(project / "out")


def test_cases_without_an_id_all_run_and_are_reported(project: Path, in_process: InProcess) -> None:
    # Loading gives such a case a new id each time: the worker read the file again and
    # found none of the cases the command had chosen, ran nothing and said nothing (exit 1)
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    for case in eval_set["eval_cases"]:
        del case["eval_id"]
    path.write_text(json.dumps(eval_set, indent=2))

    done = in_process(project, "run", "--agent", AGENT, str(path), "--output-dir", "out")

    (report,) = reports(project / "out")
    results = json.loads(report.read_text())["results"]
    assert len(results) == len(eval_set["eval_cases"]), done.stdout + done.stderr
    assert f"{len(results)} cases" in done.stdout


def _without_ids(path: Path) -> int:
    """The eval set file ``path`` with no case id left; its number of cases."""
    eval_set = json.loads(path.read_text())
    for case in eval_set["eval_cases"]:
        del case["eval_id"]
    path.write_text(json.dumps(eval_set, indent=2))
    return len(eval_set["eval_cases"])


def test_cases_without_an_id_run_picked_by_limit_and_sample_named_by_their_place(
    project: Path, in_process: InProcess
) -> None:
    # The command's made-up ids and the worker's differed: a pick of such cases ran
    # nothing, wrote no report and said nothing (exit 1)
    path = project / "evals/plain.evalset.json"
    total = _without_ids(path)
    assert total > 2

    limited = in_process(
        project, "run", "--agent", AGENT, str(path), "--limit", "2", "-o", "a.json"
    )
    sampled = in_process(
        project, "run", "--agent", AGENT, str(path), "--sample", "2", "--seed", "3",
        "-o", "b.json", "--output-dir", "out2",
    )  # fmt: skip

    assert limited.returncode == 0, limited.stdout + limited.stderr
    ids = [r["eval_id"] for r in json.loads((project / "a.json").read_text())["results"]]
    assert ids == ["case-1", "case-2"]
    assert sampled.returncode == 0, sampled.stdout + sampled.stderr
    picked = [r["eval_id"] for r in json.loads((project / "b.json").read_text())["results"]]
    assert len(picked) == 2
    assert set(picked) <= {f"case-{n}" for n in range(1, total + 1)}


def test_a_case_that_does_not_load_stops_the_run_there_in_loading_s_words(
    project: Path, in_process: InProcess
) -> None:
    # The worker built and hashed every case before the first ran: a broken last case
    # stopped the run before any case. Now the cases before it run first; the run still
    # stops with loading's error (file, line, column, field) and writes no report.
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    eval_set["eval_cases"][-1]["conversation"] = 3
    path.write_text(json.dumps(eval_set, indent=2))
    with pytest.raises(EvalFileError) as loading:
        EvalSet.from_file(path)

    done = in_process(project, "run", "--agent", AGENT, str(path), "--output-dir", "out", "-v")

    assert done.returncode == 2, done.stdout + done.stderr
    assert str(loading.value) in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "PASSED" not in done.stdout
    assert not reports(project / "out")
    (journal,) = (project / "out").glob("*.journal.jsonl")  # what ran before it, kept
    assert f"the run's journal is kept: {journal.relative_to(project)}" in done.stderr
    assert "--resume" in done.stderr  # and how to run the rest once the file is fixed
    ran = [json.loads(line) for line in journal.read_text().splitlines()]
    assert len([line for line in ran if line["type"] == "case"]) == len(eval_set["eval_cases"]) - 1
    assert not [line for line in ran if line["type"] == "run_end"]  # the run did not end
