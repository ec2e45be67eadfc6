"""A run over some of an eval set's cases (a rerun of the failed ones, `--case`, `--tags`) is
marked so in its report (``metadata.selection``), and `history`, `trend` and `compare` do not
take it for a run of the whole set."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation.selection_marks import SELECTION_KEY
from tests.browsing.history.samples import write_run, write_series
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT

IDS = [f"c{i}" for i in range(10)]
RERUN = {SELECTION_KEY: {"by": "rerun_failed", "cases": 2, "of": 10}}


def _reports(folder: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def test_run_case_and_tags_mark_their_report_a_full_run_does_not(
    project: Path, in_process: InProcess
) -> None:
    run = ["run", "--agent", AGENT, "evals", "-q", "--no-html"]
    assert in_process(project, *run, "--output-dir", "full").returncode == 1
    ((full,),) = [_reports(project / "full")]
    assert SELECTION_KEY not in full["metadata"]  # type: ignore[operator]
    cases = ["--case", "wrong_status", "--case", "order_a100"]
    assert in_process(project, *run, *cases, "--output-dir", "ids").returncode == 1
    ((ids,),) = [_reports(project / "ids")]
    assert ids["metadata"][SELECTION_KEY] == {"by": "cases", "cases": 2, "of": 9}  # type: ignore[index]
    assert in_process(project, *run, "--tags", "smoke", "--output-dir", "tags").returncode == 0
    ((tags,),) = [_reports(project / "tags")]
    assert tags["metadata"][SELECTION_KEY] == {"by": "tags", "cases": 2, "of": 9}  # type: ignore[index]
    # --limit: the session hands its worker the pick by id; the report says how it was chosen
    assert in_process(project, *run, "--limit", "3", "--output-dir", "limit").returncode == 0
    ((limit,),) = [_reports(project / "limit")]
    assert limit["metadata"][SELECTION_KEY] == {"by": "limit", "cases": 3, "of": 9}  # type: ignore[index]


def test_history_lists_a_rerun_marked_and_trend_ignores_it(
    tmp_path: Path, in_process: InProcess
) -> None:
    folder = tmp_path / "reports"
    write_series(folder, ["PPPPPPPPFF"] * 8, IDS)
    # three reruns of the two failing cases, failing again: 0% each, of 2 cases
    for number in (8, 9, 10):
        write_run(folder, number, {"c8": "F", "c9": "F"}, metadata=RERUN)
    trend = in_process(tmp_path, "trend", "reports", "--eval-set", "weather")
    assert trend.returncode == 0, trend.stdout  # before: "DROP", the reruns read as 0% runs
    assert "the last 8 complete run(s)" in trend.stdout
    data = json.loads(
        in_process(tmp_path, "trend", "reports", "--eval-set", "weather", "--json").stdout
    )
    assert data["dropped"] is False and len(data["runs"]) == 8
    assert all(run["selection"] is None for run in data["runs"])

    shown = in_process(tmp_path, "history", "reports", "--eval-set", "weather")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "Weather (weather): 11 run(s) in reports, the last 10:"
    reruns = [line for line in lines if "(selection: rerun failed, 2 of 10 cases)" in line]
    assert len(reruns) == 3 and all("0/2 0.0%" in line for line in reruns)
    assert "not a point of the pass-rate series nor of trend" in shown.stdout
    # the cases' strings take the reruns' results: real results of those cases
    c8 = next(line for line in lines if line.strip().startswith("C8"))
    assert c8.split()[1] == "FFFFFFFFFF"
    listed = json.loads(in_process(tmp_path, "history", "reports", "--json").stdout)
    runs = listed["eval_sets"][0]["runs"]
    assert runs[-1]["selection"] == RERUN[SELECTION_KEY]
    assert runs[0]["selection"] is None


def test_compare_previous_latest_with_a_rerun_says_not_run_not_removed(
    tmp_path: Path, in_process: InProcess
) -> None:
    folder = tmp_path / "reports"
    write_run(folder, 0, dict(zip(IDS, "PPPPPPPFFF", strict=True)))
    write_run(folder, 1, {"c7": "P", "c8": "F", "c9": "P"}, metadata=RERUN)
    args = ["compare", "previous", "latest", "--eval-set", "weather", "--output-dir", "reports"]
    done = in_process(tmp_path, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "7 not run" in out and "0 removed" in out  # before: "7 removed, 70% -> 0%"
    assert "2 fixed" in out and "1 still failing" in out
    assert "Pass rate over the 3 case(s) both runs ran: 0.0% -> 66.7%" in out
    assert "the current run is a selection (rerun failed, 2 of 10 cases)" in out
    assert "is a selection of its eval set's cases" in done.stderr
    data = json.loads(in_process(tmp_path, *args, "--json").stdout)
    assert data["pass_rate_cases"] == 3 and data["current_selection"].startswith("rerun failed")
    assert {c["change"] for c in data["cases"] if c["current_status"] is None} == {"not_run"}
    markdown = in_process(tmp_path, *args, "--format", "markdown").stdout
    assert "7 not run" in markdown and "over the 3 case(s) both runs ran" in markdown


def test_compare_previous_is_the_previous_full_run_not_a_rerun_in_between(
    tmp_path: Path, in_process: InProcess
) -> None:
    """As the workbench's baseline picker guesses: `previous` passes over a rerun (and a
    partial run) to the last run of every case; `latest` is the newest whatever it is."""
    folder = tmp_path / "reports"
    write_run(folder, 0, dict(zip(IDS, "PPPPPPPFFF", strict=True)))
    write_run(folder, 1, {"c7": "P", "c8": "F", "c9": "P"}, metadata=RERUN)
    write_run(folder, 2, {"c0": "P"}, metadata={"partial": True})
    write_run(folder, 3, {"c8": "P"}, metadata=RERUN)
    args = ["compare", "previous", "latest", "--eval-set", "weather", "--output-dir", "reports"]
    done = in_process(tmp_path, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    # before: the rerun 1 of 3 cases (or the partial run) was `previous`
    assert "Pass rate over the 1 case(s) both runs ran: 0.0% -> 100.0%" in done.stdout
    assert "9 not run" in done.stdout and "1 fixed" in done.stdout
    assert "note: the baseline report" not in done.stderr  # a full run
    assert "note: the current report reports/weather_0003.json" in done.stderr  # the rerun
    assert "warning: the baseline report" not in done.stderr  # not the partial run
    # with no full run before, `previous` is the newest earlier report, said a selection
    (folder / "weather_0000.json").unlink()
    done = in_process(tmp_path, *args)
    # the rerun 1 ran to its end, unlike the partial run 2
    assert "note: the baseline report reports/weather_0001.json is a selection" in done.stderr
    assert "the baseline run is a selection (rerun failed, 2 of 10 cases)" in done.stdout
    assert "Pass rate over the 1 case(s) both runs ran: 0.0% -> 100.0%" in done.stdout


def _journal(
    path: Path,
    sets: dict[str, tuple[list[str], dict[str, object] | None]],
    killed: tuple[str, list[str]] | None = None,
) -> None:
    """A journal (as the worker writes it) of a run of ``sets``: each set id with the ids
    of its cases run (every one passed) and its ``run_start`` metadata; ``killed``: a set
    whose run was killed (no ``run_end``) after the first of its planned ids."""
    from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult

    lines: list[dict[str, object]] = []
    runs = [(set_id, ids, ids, metadata) for set_id, (ids, metadata) in sets.items()]
    if killed is not None:
        runs.append((killed[0], killed[1], killed[1][:1], None))
    for set_id, planned, ran, metadata in runs:
        start = {"type": "run_start", "eval_set_id": set_id, "eval_set_name": set_id, "time": 0}
        lines.append({**start, **({"metadata": metadata} if metadata else {}), "eval_ids": planned})
        for eval_id in ran:
            passed = CriterionResult.success("rouge_match", 0.9, 0.5)
            result = EvalCaseResult.success(eval_id, [passed]).model_dump(mode="json")
            lines.append({"type": "case", "eval_set_id": set_id, "result": result})
        if ran == planned:
            lines.append({"type": "run_end", "eval_set_id": set_id, "partial": False})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_from_journal_of_several_sets_keeps_what_each_set_s_run_chose(
    tmp_path: Path, in_process: InProcess
) -> None:
    journal = tmp_path / "run.journal.jsonl"
    tags = {SELECTION_KEY: {"by": "tags", "cases": 1, "of": 3}}
    _journal(journal, {"a": (["a1"], tags), "b": (["b1", "b2"], None)})  # b: every case
    done = in_process(tmp_path, "run", "--from-journal", str(journal), "-o", "out.json", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    metadata = json.loads((tmp_path / "out.json").read_text())["metadata"]
    # before: no mark, the report of 3 of the sets' 5 cases read as a run of every case
    assert metadata[SELECTION_KEY] == {"by": "tags", "cases": 3, "of": 5}
    assert metadata["eval_set_ids"] == ["a", "b"]
    _journal(journal, {"a": (["a1", "a2", "a3"], None), "b": (["b1", "b2"], None)})
    done = in_process(tmp_path, "run", "--from-journal", str(journal), "-o", "full.json", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert SELECTION_KEY not in json.loads((tmp_path / "full.json").read_text())["metadata"]


def test_from_journal_counts_a_killed_sets_planned_cases_not_its_results(
    tmp_path: Path, in_process: InProcess
) -> None:
    """A --tags run over two sets killed in the second (every case of it chosen, one of its
    two finished): the report is partial, and of 3 of the sets' 5 cases, as run planned."""
    from tenxeval_tui.evaluation.results.journal import report_from_journal

    journal = tmp_path / "run.journal.jsonl"
    tags = {SELECTION_KEY: {"by": "tags", "cases": 1, "of": 3}}
    _journal(journal, {"a": (["a1"], tags)}, killed=("b", ["b1", "b2"]))
    done = in_process(tmp_path, "run", "--from-journal", str(journal), "-o", "out.json", "-q")
    assert done.returncode == 1, done.stdout + done.stderr  # partial
    metadata = json.loads((tmp_path / "out.json").read_text())["metadata"]
    assert metadata["partial"] is True
    # before: {"cases": 2, "of": 4}: b counted by its one result, as if it held one case
    assert metadata[SELECTION_KEY] == {"by": "tags", "cases": 3, "of": 5}
    assert report_from_journal(journal).metadata[SELECTION_KEY] == metadata[SELECTION_KEY]
    history = in_process(tmp_path, "history", ".", "--eval-set", "combined_eval")
    assert "(partial; selection: tags, 3 of 5 cases)" in history.stdout, history.stdout
