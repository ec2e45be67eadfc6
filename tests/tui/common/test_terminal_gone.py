"""In a real terminal (a pty), the workbench exits when its terminal goes away, and keeps
the open file's unsaved edits beside it.

Textual's own driver reads a hung-up terminal forever (the process stays behind and
spins a core) and, after a SIGHUP, could stay asleep for good at exit; the workbench's
driver notices either (``screens/common/terminal_driver.py``).
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
from contextlib import suppress
from pathlib import Path

import pyte
import pytest

from tests.tui.sample_project import sample_project
from tests.waiting import wait_sync

pytestmark = pytest.mark.slow

CONSOLE_SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


class PtyWorkbench:
    """``tenxeval-tui`` on a pty of its own (80x24), what it shows drawn by pyte."""

    def __init__(self, workspace: Path) -> None:
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, True)
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        # Its own session and no controlling terminal: closing the pty hangs it up and
        # sends no SIGHUP, as for a workbench under `make demo` whose tmux session is killed.
        self.process = subprocess.Popen(
            [str(CONSOLE_SCRIPT), str(workspace)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=workspace,
            env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"},
            start_new_session=True,
        )
        os.close(slave)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the pty closed
                return
            if not data:
                return
            with self._lock:
                self._stream.feed(data)

    def shows(self, text: str) -> bool:
        with self._lock:
            return any(text in line for line in self.screen.display)

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close_terminal(self) -> None:
        os.close(self.master)

    def has_exited(self) -> bool:
        return self.process.poll() is not None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        with suppress(OSError):  # closed by the test
            os.close(self.master)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return sample_project(tmp_path / "project")


@pytest.fixture
def workbench(workspace: Path):
    app = PtyWorkbench(workspace)
    try:
        yield app
    finally:
        app.kill()


def test_the_workbench_exits_when_its_terminal_hangs_up(workbench: PtyWorkbench) -> None:
    wait_sync(lambda: workbench.shows("eval sets"), timeout=60, what="the editor is shown")
    workbench.close_terminal()
    wait_sync(workbench.has_exited, timeout=30, what="the workbench exits")
    assert workbench.process.returncode == 129


def test_a_sighup_keeps_the_unsaved_edits_beside_the_file(
    workbench: PtyWorkbench, workspace: Path
) -> None:
    wait_sync(lambda: workbench.shows("eval sets"), timeout=60, what="the editor is shown")
    originals = {p: p.read_text(encoding="utf-8") for p in workspace.rglob("*.evalset.json")}
    workbench.press(b"\x04")  # ctrl+d: duplicate the case
    wait_sync(lambda: workbench.shows("_copy"), timeout=30, what="the duplicate is shown")
    workbench.process.send_signal(signal.SIGHUP)  # what a shell sends its jobs as tmux ends
    workbench.close_terminal()
    wait_sync(workbench.has_exited, timeout=30, what="the workbench exits")
    assert workbench.process.returncode == 129
    kept = list(workspace.rglob("*.unsaved"))
    assert len(kept) == 1, kept
    edited = kept[0].with_name(kept[0].name.removesuffix(".unsaved"))
    assert {p: p.read_text(encoding="utf-8") for p in originals} == originals  # not saved
    before = json.loads(originals[edited])["eval_cases"]
    after = json.loads(kept[0].read_text(encoding="utf-8"))["eval_cases"]
    assert len(after) == len(before) + 1
    assert after[0] == before[0]
