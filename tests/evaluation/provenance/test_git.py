"""The git state a report records, through the real `git` in a repository made here."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.provenance import GitError, GitState, file_at_ref, git_state
from tenxeval_tui.evaluation.provenance import git as git_module
from tests.waiting import scaled

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(folder: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=folder, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def make_repo(folder: Path) -> str:
    """A repository in ``folder`` with one commit of ``evals/a.evalset.json``; its commit."""
    (folder / "evals").mkdir(parents=True)
    (folder / "evals/a.evalset.json").write_text('{"eval_set_id": "a", "eval_cases": []}\n')
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "first")
    return git(folder, "rev-parse", "HEAD")


def test_a_clean_then_dirty_checkout(tmp_path: Path) -> None:
    commit = make_repo(tmp_path)
    eval_set = tmp_path / "evals/a.evalset.json"
    assert git_state(eval_set) == GitState(commit=commit, dirty=False, branch="main")
    (tmp_path / "eval_reports").mkdir()
    (tmp_path / "eval_reports/r.json").write_text("{}")  # untracked: still clean
    assert git_state(eval_set).dirty is False
    eval_set.write_text('{"eval_set_id": "a", "eval_cases": [], "name": "x"}\n')
    assert git_state(tmp_path).dirty is True


def test_detached_head_has_a_commit_and_no_branch(tmp_path: Path) -> None:
    commit = make_repo(tmp_path)
    git(tmp_path, "checkout", "-q", "--detach")
    assert git_state(tmp_path) == GitState(commit=commit, dirty=False, branch=None)


def test_no_repository_no_commit_yet_and_no_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    assert git_state(outside / "missing.json") == GitState()
    unborn = tmp_path / "unborn"
    unborn.mkdir()
    git(unborn, "init", "-q")
    assert git_state(unborn) == GitState()
    repo = tmp_path / "repo"
    repo.mkdir()
    make_repo(repo)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin-here"))
    assert git_state(repo) == GitState()
    with pytest.raises(GitError, match="git is not installed"):
        file_at_ref(repo / "evals/a.evalset.json", "HEAD")


def test_a_file_at_an_earlier_commit(tmp_path: Path) -> None:
    make_repo(tmp_path)
    eval_set = tmp_path / "evals/a.evalset.json"
    first = eval_set.read_bytes()
    eval_set.write_text('{"eval_set_id": "a", "eval_cases": [], "name": "second"}\n')
    git(tmp_path, "commit", "-q", "-am", "second")
    assert file_at_ref(eval_set, "HEAD~1") == first
    assert file_at_ref(eval_set, "HEAD") == eval_set.read_bytes()
    with pytest.raises(GitError, match="HEAD~5"):
        file_at_ref(eval_set, "HEAD~5")
    with pytest.raises(GitError, match="not a git revision"):
        file_at_ref(eval_set, "--output=/tmp/x")
    new = tmp_path / "evals/new.evalset.json"
    new.write_text("{}")
    with pytest.raises(GitError, match=r"new\.evalset\.json at HEAD"):
        file_at_ref(new, "HEAD")
    with pytest.raises(GitError, match="not in a git repository"):
        file_at_ref(tmp_path.parent / "elsewhere.json", "HEAD")


FAKE_GIT = """#!/bin/sh
# A git that answers as a repository on branch main would, once all three of git_state's
# commands have started (or after 5 s, noting it ran alone).
touch "$FAKE_DIR/started.$$"
waited=0
while [ "$(ls "$FAKE_DIR" | grep -c '^started')" -lt 3 ] && [ "$waited" -lt 100 ]; do
  sleep 0.05
  waited=$((waited + 1))
done
[ "$(ls "$FAKE_DIR" | grep -c '^started')" -lt 3 ] && touch "$FAKE_DIR/alone"
case "$3" in
  rev-parse) echo 0123456789012345678901234567890123456789 ;;
  symbolic-ref) echo main ;;
  status) echo " M evals/a.evalset.json" ;;
esac
"""


def _fake_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> Path:
    """``script`` as the only ``git`` on the path; the folder it may write in."""
    bin_dir, scratch = tmp_path / "bin", tmp_path / "scratch"
    bin_dir.mkdir()
    scratch.mkdir()
    fake = bin_dir / "git"
    fake.write_text(script)
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setenv("FAKE_DIR", str(scratch))
    return scratch


def test_the_git_state_asks_its_three_questions_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = _fake_git(tmp_path, monkeypatch, FAKE_GIT)
    state = git_state(tmp_path)
    assert state == GitState(
        commit="0123456789012345678901234567890123456789", dirty=True, branch="main"
    )
    assert not (scratch / "alone").exists()  # each waited for the others: none ran alone


def test_a_git_that_hangs_gives_no_state_and_is_not_left_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = _fake_git(
        tmp_path, monkeypatch, '#!/bin/sh\necho $$ > "$FAKE_DIR/pid.$$"\nexec sleep 60\n'
    )
    monkeypatch.setattr(git_module, "GIT_TIMEOUT", scaled(1.0))
    assert git_state(tmp_path) == GitState()
    pids = [int(p.read_text()) for p in scratch.glob("pid.*")]
    assert pids  # the fake really ran
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # killed and waited for, not left behind


def test_git_state_takes_the_answers_of_the_commands_started_for_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run's worker starts the git commands as it is told its agent (issue #38): the
    provenance's git_state then waits for no new git, and gives what it would have."""
    commit = make_repo(tmp_path)
    eval_set = tmp_path / "evals/a.evalset.json"
    git_module.start_git_state(eval_set)
    git_module.start_git_state(tmp_path / "evals")  # the same folder: started once
    started: list[object] = []
    real = subprocess.Popen

    def popen(*args: object, **kwargs: object) -> object:
        started.append(args)
        return real(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(git_module.subprocess, "Popen", popen)
    assert git_state(eval_set) == GitState(commit=commit, dirty=False, branch="main")
    assert started == []
    eval_set.write_text('{"eval_set_id": "a", "eval_cases": [], "name": "x"}\n')
    assert git_state(eval_set).dirty is True  # taken once: the next one runs git again
    assert len(started) == 3


def test_git_started_where_there_is_no_git_is_found_out_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin-here"))
    git_module.start_git_state(tmp_path)
    assert git_state(tmp_path) == GitState()
