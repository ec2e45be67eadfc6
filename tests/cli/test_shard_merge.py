"""`run --shard K/N` and `merge`, through the real console script: the parts of a run,
merged, are the run."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation import EvalSet
from tests.cli.test_run import AGENT, cli, reports


def _two_sets(project: Path) -> None:
    other = EvalSet.from_file(project / "evals/plain.evalset.json")
    other.eval_set_id = "second"
    for case in other.eval_cases:
        case.eval_id += "_again"
    other.to_file(project / "evals/second.evalset.json")


def _outcomes(report: Path) -> list[tuple[str, str, bool]]:
    data = json.loads(report.read_text())
    return [
        (r["metadata"].get("eval_set_id", data["eval_set_id"]), r["eval_id"], r["passed"])
        for r in data["results"]
    ]


def test_shards_are_disjoint_cover_the_run_and_merge_back_in_order(project: Path) -> None:
    _two_sets(project)
    whole = cli(project, "run", "--agent", AGENT, "evals", "-q", "--output-dir", "whole")
    assert whole.returncode == 1  # the sample set has a failing and an erroring case
    (whole_report,) = reports(project / "whole")
    parts: list[Path] = []
    for k in (1, 2, 3):
        done = cli(
            project, "run", "--agent", AGENT, "evals", "-q", "--shard", f"{k}/3",
            "--output-dir", f"part{k}",
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        assert f"running shard {k}/3: " in done.stdout
        (part,) = reports(project / f"part{k}")
        meta = json.loads(part.read_text())["metadata"]["shard"]
        assert meta == {"index": k, "count": 3, "total": 18}
        parts.append(part)
    keys = [{(s, c) for s, c, _ in _outcomes(p)} for p in parts]
    assert all(keys), "every part of 18 cases holds some"
    assert not (keys[0] & keys[1]) and not (keys[0] & keys[2]) and not (keys[1] & keys[2])
    assert set().union(*keys) == {(s, c) for s, c, _ in _outcomes(whole_report)}

    merged = cli(project, "merge", *map(str, reversed(parts)), "-o", "merged.json", "-q")
    assert merged.returncode == 1, merged.stderr  # as the whole run: a case failed
    assert "merged 3 reports: 14/18 passed, 2 failed, 2 errored" in merged.stdout
    # the cases in eval-set order, with the outcomes of the whole run
    assert _outcomes(project / "merged.json") == _outcomes(whole_report)
    data = json.loads((project / "merged.json").read_text())
    assert data["metadata"]["merged_from"] == [str(p) for p in reversed(parts)]
    assert data["metadata"]["eval_set_ids"] == ["plain_agent", "second"]
    assert "partial" not in data["metadata"]
    assert all("run_position" not in r["metadata"] for r in data["results"])


def test_merge_refuses_overlapping_cases_and_other_configs(project: Path) -> None:
    one = cli(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "1/2", "--output-dir", "a"
    )
    assert one.returncode in (0, 1), one.stderr
    (part_a,) = reports(project / "a")
    again = cli(project, "merge", str(part_a), str(part_a), "-o", "m.json")
    assert again.returncode == 2
    assert f"tenxeval-tui merge: {part_a}: case " in again.stderr
    assert "is in " in again.stderr and "overlapping reports" in again.stderr
    assert not (project / "m.json").exists()

    other = cli(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "2/2", "--timeout", "9",
        "--output-dir", "b",
    )  # fmt: skip
    assert other.returncode in (0, 1), other.stderr
    (part_b,) = reports(project / "b")
    refused = cli(project, "merge", str(part_a), str(part_b))
    assert refused.returncode == 2
    assert f"{part_b}: was run with another config than {part_a}" in refused.stderr
    assert "they differ in timeout" in refused.stderr


def test_a_missing_part_is_said_and_the_merged_report_is_partial(project: Path) -> None:
    done = cli(project, "run", "--agent", AGENT, "evals", "-q", "--shard", "2/3", "-o", "p2.json")
    assert done.returncode in (0, 1), done.stderr
    merged = cli(project, "merge", "p2.json", "-q")
    assert "warning: no report of shard 1/3, 3/3: the merged report is partial" in merged.stderr
    assert json.loads((project / "merged.json").read_text())["metadata"]["partial"] is True


def test_bad_shard_values_are_usage_errors(project: Path) -> None:
    for value, problem in (("4/3", "K must be from 1 to N"), ("half", "is not K/N")):
        done = cli(project, "run", "--agent", AGENT, "evals", "--shard", value)
        assert done.returncode == 2
        assert "tenxeval-tui run: --shard: " in done.stderr and problem in done.stderr


def test_a_part_with_no_case_runs_nothing_and_exits_0(project: Path) -> None:
    # one case, many parts: all but one part are empty
    outcomes = [
        cli(project, "run", "--agent", AGENT, "evals", "--case", "greeting", "--shard", f"{k}/4")
        for k in range(1, 5)
    ]
    assert [o.returncode for o in outcomes].count(0) == 4, [o.stderr for o in outcomes]
    empty = [o for o in outcomes if "nothing to run" in o.stdout]
    assert len(empty) == 3
    assert "none of the 1 selected cases is in it" in empty[0].stdout
