"""Where a file stands in git: the commit checked out, whether the tree is dirty, and a
file's text at another commit. Through the ``git`` command (a subprocess), so nothing
but git itself is needed.

No ``git`` on the path, a folder outside any repository, a repository with no commit
yet: :func:`git_state` says so with ``None`` fields rather than raising. A detached
HEAD has a commit and no branch.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

GIT_TIMEOUT = 10.0
"""Seconds one git command may take (a repository on a hung network share must not
hang a run)."""


class GitError(Exception):
    """A git command could not give what was asked; ``str()`` says why, for the user."""


@dataclass(frozen=True, slots=True)
class GitState:
    """The repository a folder is in, as a report records it (every field ``None`` when
    it is in none, or git is missing)."""

    commit: str | None = None
    """The commit checked out (40 hex digits); ``None`` outside a repository or before
    its first commit."""
    dirty: bool | None = None
    """Whether tracked files differ from that commit (staged or not). Untracked files do
    not count: reports written into the tree must not make every later run dirty."""
    branch: str | None = None
    """The branch checked out; ``None`` on a detached HEAD."""


def _git_env() -> dict[str, str]:
    # GIT_OPTIONAL_LOCKS=0: `git status` must not take the index lock of a repository
    # the user is working in.
    return {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C folder ARGS``; ``FileNotFoundError`` when there is no git."""
    return subprocess.run(
        ["git", "-C", str(folder), *args],
        capture_output=True,
        timeout=GIT_TIMEOUT,
        env=_git_env(),
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _git_together(
    folder: Path, *commands: tuple[str, ...]
) -> list[subprocess.CompletedProcess[bytes]]:
    """Run each of ``commands`` (``git -C folder ARGS``) at once, side by side, and wait for
    them all; ``FileNotFoundError`` when there is no git, ``TimeoutExpired`` when one takes
    more than :data:`GIT_TIMEOUT` (none is left running)."""
    return _answers(_started(folder, commands))


def _started(folder: Path, commands: Sequence[tuple[str, ...]]) -> list[subprocess.Popen[bytes]]:
    """Each of ``commands`` (``git -C folder ARGS``) started, side by side; none is left
    running when one cannot be started (``FileNotFoundError``: no git)."""
    started: list[subprocess.Popen[bytes]] = []
    env = _git_env()
    try:
        for args in commands:
            started.append(
                subprocess.Popen(
                    ["git", "-C", str(folder), *args],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    stdin=subprocess.DEVNULL,
                    env=env,
                )
            )
    except BaseException:
        _end(started)
        raise
    return started


def _answers(
    started: Sequence[subprocess.Popen[bytes]],
) -> list[subprocess.CompletedProcess[bytes]]:
    """What each of the ``started`` commands gave, once all ended (``TimeoutExpired`` when
    one takes more than :data:`GIT_TIMEOUT`: none is left running)."""
    try:
        done = []
        for process in started:
            out, err = process.communicate(timeout=GIT_TIMEOUT)
            done.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
        return done
    finally:
        _end(started)


def _end(started: Sequence[subprocess.Popen[bytes]]) -> None:
    for process in started:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _out(done: subprocess.CompletedProcess[bytes]) -> str | None:
    """What a git command printed, stripped (``None`` when it failed or printed nothing)."""
    text = done.stdout.decode("utf-8", "replace").strip()
    return text or None if done.returncode == 0 else None


def _existing_folder(path: Path) -> Path:
    folder = path if path.is_dir() else path.parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return folder


_STATE_COMMANDS = (
    ("rev-parse", "--verify", "--quiet", "HEAD"),
    ("status", "--porcelain", "--untracked-files=no"),
    ("symbolic-ref", "--quiet", "--short", "HEAD"),
)
"""The commands :func:`git_state` runs, side by side (one after the other, they held a
run's first case, issue #38)."""

_early: dict[Path, tuple[int, list[subprocess.Popen[bytes]]]] = {}
"""The commands :func:`start_git_state` started, by folder, with the process that started
them (a forked copy of it cannot wait for them), until a :func:`git_state` takes them."""


def start_git_state(path: str | Path) -> None:
    """Start the commands of :func:`git_state` of ``path`` now, in the background: the
    next :func:`git_state` of the same folder in this process takes their answers instead
    of running them. A run's worker starts them as it is told its agent, while it imports
    it, so its first case does not wait for git (issue #38). Nothing when git cannot be
    started (:func:`git_state` then finds that out itself)."""
    folder = _existing_folder(Path(path).resolve())
    if folder in _early:
        return
    try:
        _early[folder] = (os.getpid(), _started(folder, _STATE_COMMANDS))
    except (OSError, subprocess.SubprocessError):
        return


def git_state(path: str | Path) -> GitState:
    """The git state of the repository holding ``path`` (a file or a folder); the answers
    of the commands :func:`start_git_state` started for its folder, when it did."""
    folder = _existing_folder(Path(path).resolve())
    pid, early = _early.pop(folder, (None, None))
    if pid != os.getpid():
        early = None
    try:
        head, status, branch = (
            _answers(early) if early is not None else _git_together(folder, *_STATE_COMMANDS)
        )
    except (OSError, subprocess.SubprocessError):
        return GitState()  # no git, or it hung
    if head.returncode != 0:
        return GitState()  # not a repository, or one with no commit yet
    return GitState(
        commit=_out(head),
        dirty=bool(status.stdout.strip()) if status.returncode == 0 else None,
        branch=_out(branch),
    )


def file_at_ref(path: str | Path, ref: str) -> bytes:
    """The bytes of ``path`` at git revision ``ref`` (a commit, branch, tag, ``HEAD~2``);
    :class:`GitError` saying why when git cannot give them."""
    file = Path(path).resolve()
    folder = _existing_folder(file)
    if ref.startswith("-"):
        raise GitError(f"--git {ref}: not a git revision")
    try:
        top = _out(_git(folder, "rev-parse", "--show-toplevel"))
        if top is None:
            raise GitError(f"{path}: not in a git repository")
        relative = file.relative_to(Path(top).resolve()).as_posix()
        shown = _git(folder, "show", f"{ref}:{relative}")
    except FileNotFoundError:
        raise GitError("git is not installed (no `git` on the PATH)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git took more than {GIT_TIMEOUT:g}s to answer") from None
    except ValueError:
        raise GitError(f"{path}: outside the repository's folder") from None
    if shown.returncode != 0:
        said = shown.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = said[-1] if said else f"git show exited with status {shown.returncode}"
        raise GitError(f"{path} at {ref}: {reason.removeprefix('fatal: ')}")
    return shown.stdout


__all__ = ["GIT_TIMEOUT", "GitError", "GitState", "file_at_ref", "git_state", "start_git_state"]
