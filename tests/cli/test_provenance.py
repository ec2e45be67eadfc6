"""Every report `run` writes says where it came from: through the console script's entry point
in-process, in a git repository made in the test's folder (one process, shards and their merge;
the --workers and Ray backends are checked in test_workers.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalSet
from tenxeval_tui.evaluation.provenance import agent_code, case_sha256, eval_set_sha256
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT
from tests.evaluation.provenance.test_git import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _commit_all(project: Path, message: str) -> str:
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", message)
    return git(project, "rev-parse", "HEAD")


def _report(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_a_run_records_commit_dirtiness_and_hashes(project: Path, in_process: InProcess) -> None:
    (project / ".gitignore").write_text("out*/\n")
    git(project, "init", "-q", "-b", "main")
    commit = _commit_all(project, "first")
    done = in_process(project, "run", "--agent", AGENT, "evals", "-q", "-o", "out/first.json")
    assert done.returncode == 1, done.stderr  # the sample set fails a case
    first = _report(project / "out/first.json")
    provenance = first["metadata"]["provenance"]
    assert provenance["git_commit"] == commit and provenance["git_dirty"] is False
    assert provenance["git_branch"] == "main"
    eval_set = EvalSet.from_file(project / "evals/plain.evalset.json")
    assert provenance["eval_set_sha256"] == eval_set_sha256(eval_set)
    code = agent_code("support_agent", project)
    assert code is not None and provenance["agent_sha256"] == code.sha256
    assert provenance["agent_module"] == "support_agent"
    assert set(provenance) >= {"config_sha256", "judge_models", "versions"}
    hashes = {case.eval_id: case_sha256(case) for case in eval_set.eval_cases}
    assert {r["eval_id"]: r["metadata"]["case_sha256"] for r in first["results"]} == hashes

    agent = project / "support_agent.py"
    agent.write_text(agent.read_text() + "\n# a change\n")
    in_process(project, "run", "--agent", AGENT, "evals", "-q", "-o", "out/second.json")
    second = _report(project / "out/second.json")["metadata"]["provenance"]
    assert second["git_commit"] == commit and second["git_dirty"] is True
    assert second["agent_sha256"] != provenance["agent_sha256"]
    assert second["eval_set_sha256"] == provenance["eval_set_sha256"]
    assert second["config_sha256"] == provenance["config_sha256"]


def test_shards_and_their_merge_carry_the_runs_provenance(
    project: Path, in_process: InProcess
) -> None:
    for k in (1, 2):
        done = in_process(
            project, "run", "--agent", AGENT, "evals", "-q", "--shard", f"{k}/2", "-o", f"s{k}.json"
        )
        assert done.returncode in (0, 1), done.stderr
    parts = [_report(project / f"s{k}.json") for k in (1, 2)]
    provenance = parts[0]["metadata"]["provenance"]
    assert parts[1]["metadata"]["provenance"] == provenance
    assert provenance["git_commit"] is None  # not in a repository
    merged = in_process(project, "merge", "s1.json", "s2.json", "-o", "merged.json", "-q")
    assert merged.returncode in (0, 1), merged.stderr
    whole = _report(project / "merged.json")
    assert whole["metadata"]["provenance"] == provenance
    assert all(len(r["metadata"]["case_sha256"]) == 64 for r in whole["results"])
