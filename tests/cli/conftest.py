"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tenxeval_tui.cli.main import main

# The loopback OpenAI-compatible server (playing judges and simulated users), for the
# tests of `run` on scenario files.
from tests.evaluation.criteria.conftest import judge_env, judge_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder: the sample plain agent as ./support_agent.py and its eval set."""
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    (tmp_path / "evals").mkdir()
    eval_set = json.loads((ROOT / "sample_evals/plain_agent.evalset.json").read_text())
    del eval_set["metadata"]["agent"]  # the tests name the agent themselves
    (tmp_path / "evals/plain.evalset.json").write_text(json.dumps(eval_set, indent=2))
    return tmp_path


@dataclass(frozen=True)
class Outcome:
    """What a command did: the exit status and what it printed (as ``CompletedProcess``)."""

    returncode: int
    stdout: str
    stderr: str


InProcess = Callable[..., Outcome]


@pytest.fixture
def in_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[InProcess]:
    """``in_process(cwd, *args, env=...)``: ``tenxeval-tui ARGS`` through the console
    script's own entry point (``tenxeval_tui.cli.main``) in this process, in ``cwd``.

    The same parsing and checks as the console script, without starting Python again: for
    usage and configuration errors, which end before any case runs (each behaviour keeps a
    test through the real console script). What a command changes in this process is put
    back after: the environment (``run`` exports the judge's settings), the root logger
    (``run`` sets its level and handler) and the agent modules it imported.
    """
    path, modules, folders = list(sys.path), set(sys.modules), set[Path]()
    environ = dict(os.environ)
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")

    def run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> Outcome:
        folders.add(cwd.resolve())
        monkeypatch.chdir(cwd)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's own usage errors
            code = exit_.code if isinstance(exit_.code, int) else 1
        out, err = capsys.readouterr()
        return Outcome(code, out, err)

    try:
        yield run
    finally:
        os.environ.clear()
        os.environ.update(environ)
        root.setLevel(level)
        root.handlers[:] = handlers
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            file = getattr(sys.modules[name], "__file__", None)
            if file and any(Path(file).resolve().is_relative_to(f) for f in folders):
                del sys.modules[name]


__all__ = ["InProcess", "Outcome", "in_process", "judge_env", "judge_server", "project"]
