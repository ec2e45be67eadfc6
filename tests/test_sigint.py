"""A suite started with SIGINT ignored (a background job of a shell without job control)
still gives its children Ctrl-C: the tests that interrupt a child depend on it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.waiting import scaled

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import signal
import subprocess
import sys


def test_a_child_of_the_suite_gets_ctrl_c() -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    child = "import signal, sys; sys.exit(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"
    assert subprocess.run([sys.executable, "-c", child], timeout=60).returncode == 0
"""


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_a_suite_started_with_sigint_ignored_hands_its_children_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "test_probe.py").write_text(PROBE)
    # The suite's own conftest, loaded as a plugin for a test file outside the suite.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(120), preexec_fn=ignore_sigint,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
