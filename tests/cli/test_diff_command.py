"""`diff OLD NEW` and `diff --git REF FILE` (the first test through the real console script, the
rest in-process through its entry point)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import InProcess
from tests.cli.test_run import cli
from tests.evaluation.provenance.test_git import git


def case(eval_id: str, query: str, expected: str, **extra: Any) -> dict[str, Any]:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "user_content": {"role": "user", "content": query},
                "expected_final_response": {"role": "assistant", "content": expected},
            }
        ],
        **extra,
    }


OLD = {
    "eval_set_id": "weather",
    "name": "Weather",
    "eval_cases": [
        case("london", "Weather in London?", "Sunny"),
        case("paris", "Weather in Paris?", "Sunny", tags=["smoke"]),
        case("tokyo", "Weather in Tokyo?", "Rain"),
    ],
}
NEW = {
    "eval_set_id": "weather",
    "name": "Weather v2",
    "eval_cases": [
        # the same case, laid out otherwise and with a default spelled out: unchanged
        {**case("london", "Weather in London?", "Sunny"), "description": "", "metadata": {}},
        case("paris", "Weather in Paris?", "Rainy", tags=["smoke", "slow"]),
        case("oslo", "Weather in Oslo?", "Snow"),
    ],
}


def write(path: Path, data: dict[str, Any], indent: int | None = 2) -> Path:
    path.write_text(json.dumps(data, indent=indent))
    return path


def test_diff_lists_added_removed_and_changed_fields(tmp_path: Path) -> None:
    write(tmp_path / "old.evalset.json", OLD)
    write(tmp_path / "new.evalset.json", NEW, indent=None)
    done = cli(tmp_path, "diff", "old.evalset.json", "new.evalset.json")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "old.evalset.json -> new.evalset.json: 1 added, 1 removed, 1 changed, 1 unchanged",
        "~ changed  paris",
        '    conversation[0].expected_final_response.content: "Sunny" -> "Rainy"',
        '    tags[1]: (none) -> "slow"',
        "+ added    oslo",
        "- removed  tokyo",
        "eval set fields:",
        '    name: "Weather" -> "Weather v2"',
    ]
    data = json.loads(
        cli(tmp_path, "diff", "old.evalset.json", "new.evalset.json", "--json").stdout
    )
    assert [(c["eval_id"], c["change"]) for c in data["cases"]] == [
        ("paris", "changed"), ("oslo", "added"), ("tokyo", "removed"),
    ]  # fmt: skip
    assert data["cases"][0]["fields"][1] == {
        "path": "tags[1]", "old": None, "new": "slow", "only_old": False, "only_new": True,
    }  # fmt: skip
    same = cli(tmp_path, "diff", "old.evalset.json", "old.evalset.json")
    assert same.returncode == 0 and "0 added, 0 removed, 0 changed, 3 unchanged" in same.stdout


def test_diff_names_a_file_that_does_not_load(tmp_path: Path, in_process: InProcess) -> None:
    write(tmp_path / "old.evalset.json", OLD)
    (tmp_path / "bad.evalset.json").write_text(
        '{"eval_set_id": "w", "eval_cases": [\n  {"eval_id": 3}]}'
    )
    bad = in_process(tmp_path, "diff", "old.evalset.json", "bad.evalset.json")
    assert bad.returncode == 2 and "bad.evalset.json:2:" in bad.stderr
    missing = in_process(tmp_path, "diff", "old.evalset.json", "gone.evalset.json")
    assert missing.returncode == 2 and "gone.evalset.json: file not found" in missing.stderr
    one = in_process(tmp_path, "diff", "old.evalset.json")
    assert one.returncode == 2 and "give OLD and NEW" in one.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_diff_against_a_git_revision(tmp_path: Path, in_process: InProcess) -> None:
    (tmp_path / "evals").mkdir()
    path = write(tmp_path / "evals" / "w.evalset.json", OLD)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "first")
    write(path, NEW)
    done = in_process(tmp_path / "evals", "diff", "--git", "HEAD", "w.evalset.json")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == (
        "w.evalset.json@HEAD -> w.evalset.json: 1 added, 1 removed, 1 changed, 1 unchanged"
    )
    git(tmp_path, "commit", "-q", "-am", "second")
    assert in_process(tmp_path, "diff", "--git", "HEAD", "evals/w.evalset.json").returncode == 0
    back = in_process(tmp_path, "diff", "--git", "HEAD~1", "evals/w.evalset.json")
    assert back.returncode == 1 and "+ added    oslo" in back.stdout
    write(tmp_path / "evals" / "broken.evalset.json", {"eval_set_id": "b", "eval_cases": "no"})
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "broken")
    write(tmp_path / "evals" / "broken.evalset.json", OLD)
    broken = in_process(tmp_path, "diff", "--git", "HEAD", "evals/broken.evalset.json")
    assert broken.returncode == 2
    assert "evals/broken.evalset.json@HEAD:3:17: eval_cases: Input should be a valid array" in (
        broken.stderr
    )
    unknown = in_process(tmp_path, "diff", "--git", "nope", "evals/w.evalset.json")
    assert unknown.returncode == 2 and "w.evalset.json at nope" in unknown.stderr
