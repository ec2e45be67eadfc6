"""`run --shard K/N` and `merge`, through the real console script: the parts of a run,
merged, are the run."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation import EvalSet
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports


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


def test_shards_are_disjoint_cover_the_run_and_merge_back_in_order(
    project: Path, in_process: InProcess
) -> None:
    _two_sets(project)
    whole = in_process(project, "run", "--agent", AGENT, "evals", "-q", "--output-dir", "whole")
    assert whole.returncode == 1  # the sample set has a failing and an erroring case
    (whole_report,) = reports(project / "whole")
    parts: list[Path] = []
    for k in (1, 2, 3):
        done = in_process(
            project, "run", "--agent", AGENT, "evals", "-q", "--shard", f"{k}/3",
            "--output-dir", f"part{k}",
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        assert f"running shard {k}/3: " in done.stdout
        (part,) = reports(project / f"part{k}")
        meta = json.loads(part.read_text())["metadata"]["shard"]
        assert {key: meta[key] for key in ("index", "count", "total")} == {
            "index": k,
            "count": 3,
            "total": 18,
        }
        parts.append(part)
    keys = [{(s, c) for s, c, _ in _outcomes(p)} for p in parts]
    assert all(keys), "every part of 18 cases holds some"
    assert not (keys[0] & keys[1]) and not (keys[0] & keys[2]) and not (keys[1] & keys[2])
    assert set().union(*keys) == {(s, c) for s, c, _ in _outcomes(whole_report)}

    merged = in_process(project, "merge", *map(str, reversed(parts)), "-o", "merged.json", "-q")
    assert merged.returncode == 1, merged.stderr  # as the whole run: a case failed
    assert "merged 3 reports: 14/18 passed, 2 failed, 2 errored" in merged.stdout
    # the cases in eval-set order, with the outcomes of the whole run
    assert _outcomes(project / "merged.json") == _outcomes(whole_report)
    data = json.loads((project / "merged.json").read_text())
    assert data["metadata"]["merged_from"] == [str(p) for p in reversed(parts)]
    assert data["metadata"]["eval_set_ids"] == ["plain_agent", "second"]
    assert "partial" not in data["metadata"]
    assert all("run_position" not in r["metadata"] for r in data["results"])


def test_merge_refuses_overlapping_cases_and_other_configs(
    project: Path, in_process: InProcess
) -> None:
    one = in_process(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "1/2", "--output-dir", "a"
    )
    assert one.returncode in (0, 1), one.stderr
    (part_a,) = reports(project / "a")
    again = in_process(project, "merge", str(part_a), str(part_a), "-o", "m.json")
    assert again.returncode == 2
    assert f"tenxeval-tui merge: {part_a}: case " in again.stderr
    assert "is in " in again.stderr and "overlapping reports" in again.stderr
    assert not (project / "m.json").exists()

    other = in_process(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "2/2", "--timeout", "9",
        "--output-dir", "b",
    )  # fmt: skip
    assert other.returncode in (0, 1), other.stderr
    (part_b,) = reports(project / "b")
    refused = in_process(project, "merge", str(part_a), str(part_b))
    assert refused.returncode == 2
    assert f"{part_b}: was run with another config than {part_a}" in refused.stderr
    assert "they differ in timeout" in refused.stderr


def test_a_missing_part_is_said_and_the_merged_report_is_partial(
    project: Path, in_process: InProcess
) -> None:
    done = in_process(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "2/3", "-o", "p2.json"
    )
    assert done.returncode in (0, 1), done.stderr
    merged = in_process(project, "merge", "p2.json", "-q")
    assert "warning: no report of shard 1/3, 3/3: the merged report is partial" in merged.stderr
    assert json.loads((project / "merged.json").read_text())["metadata"]["partial"] is True


def test_bad_shard_values_are_usage_errors(project: Path, in_process: InProcess) -> None:
    for value, problem in (("4/3", "K must be from 1 to N"), ("half", "is not K/N")):
        done = in_process(project, "run", "--agent", AGENT, "evals", "--shard", value)
        assert done.returncode == 2
        assert "tenxeval-tui run: --shard: " in done.stderr and problem in done.stderr


def test_a_part_with_no_case_runs_nothing_and_exits_0(project: Path, in_process: InProcess) -> None:
    # one case, many parts: all but one part are empty
    outcomes = [
        in_process(
            project, "run", "--agent", AGENT, "evals", "--case", "greeting", "--shard", f"{k}/4"
        )
        for k in range(1, 5)
    ]
    assert [o.returncode for o in outcomes].count(0) == 4, [o.stderr for o in outcomes]
    empty = [o for o in outcomes if "nothing to run" in o.stdout]
    assert len(empty) == 3
    assert "none of the 1 selected cases is in it" in empty[0].stdout


def test_parts_of_two_runs_are_refused_not_merged_as_one(
    project: Path, in_process: InProcess
) -> None:
    # Two runs, each split in two: part 1 of the first with part 2 of the second would
    # cover both splits, while each run lacks half its cases.
    _two_sets(project)
    first = in_process(project, "run", "--agent", AGENT, "evals/plain.evalset.json", "-q",
                "--shard", "1/2", "-o", "first-1.json")  # fmt: skip
    second = in_process(project, "run", "--agent", AGENT, "evals/second.evalset.json", "-q",
                 "--shard", "2/2", "-o", "second-2.json")  # fmt: skip
    assert first.returncode in (0, 1) and second.returncode in (0, 1), first.stderr
    marks = [json.loads((project / n).read_text())["metadata"]["shard"]
             for n in ("first-1.json", "second-2.json")]  # fmt: skip
    assert marks[0]["run"] != marks[1]["run"]  # which run each part is of
    merged = in_process(project, "merge", "first-1.json", "second-2.json", "-o", "m.json")
    assert merged.returncode == 2, merged.stdout + merged.stderr
    assert merged.stderr.strip() == (
        "tenxeval-tui merge: second-2.json: is a part of another run than first-1.json "
        "(they split other cases); merge only the parts of one run"
    )
    assert not (project / "m.json").exists()


def test_a_shard_mark_that_is_not_one_is_a_clear_error(
    project: Path, in_process: InProcess
) -> None:
    done = in_process(
        project, "run", "--agent", AGENT, "evals", "-q", "--shard", "1/2", "-o", "p1.json"
    )
    assert done.returncode in (0, 1), done.stderr
    data = json.loads((project / "p1.json").read_text())
    for bad in ({**data["metadata"]["shard"], "total": "many"}, "1/2"):
        data["metadata"]["shard"] = bad
        (project / "bad.json").write_text(json.dumps(data))
        merged = in_process(project, "merge", "bad.json", "-o", "m.json")
        assert merged.returncode == 2, merged.stdout + merged.stderr
        assert "Traceback" not in merged.stderr
        assert merged.stderr.startswith(
            "tenxeval-tui merge: bad.json: metadata.shard is no shard mark "
        ), merged.stderr
