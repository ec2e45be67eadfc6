"""``run``'s parent scans the eval sets (ids, names, tags) and the worker loads the cases:
a case broken where the scan does not read still stops the run with loading's error
(the file, the line and column, the field, the problem), and a sharded, limited run of a
scanned set runs what it would have."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, case_ids, reports


def test_a_case_broken_inside_its_turns_stops_the_run_naming_file_place_and_problem(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    eval_set = json.loads(path.read_text())
    eval_set["eval_cases"][-1]["conversation"][0]["user_content"] = 5
    path.write_text(json.dumps(eval_set, indent=2))

    done = in_process(project, "run", "--agent", AGENT, "evals", "--output-dir", "out")

    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(r"plain.evalset.json:\d+:\d+: .*user_content", done.stderr), done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (project / "out").exists() or not reports(project / "out")


def test_a_limited_shard_of_a_scanned_set_runs_its_part_of_the_first_cases(
    project: Path, in_process: InProcess
) -> None:
    eval_set = json.loads((project / "evals/plain.evalset.json").read_text())
    first = [case["eval_id"] for case in eval_set["eval_cases"]][:3]
    parts = []
    for index in (1, 2):
        out = f"out{index}"
        args = ["--agent", AGENT, "evals", "--limit", "3", "--shard", f"{index}/2"]
        done = in_process(project, "run", *args, "--output-dir", out, "--threshold", "0")
        if done.returncode == 0 and reports(project / out):
            parts.extend(case_ids(reports(project / out)[0]))
        else:  # a part may hold none of the three
            assert "nothing to run" in done.stderr, done.stdout + done.stderr
    assert sorted(parts) == sorted(first)
