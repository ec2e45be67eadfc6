"""A ``tenxeval-tui run --watch`` child for the watch tests: its output read line by line as
it comes, a line waited for, a file changed until the watcher says so, Ctrl-C to stop it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.waiting import DEFAULT_TIMEOUT, scaled, wait_sync

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


class Watch:
    """A `run --watch` child (in a session of its own) whose output lines are read as they
    come."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.child = subprocess.Popen(
            [str(SCRIPT), "run", *args, "--watch"],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env={**os.environ, "NO_COLOR": "1"},
        )
        self.lines: list[str] = []
        assert self.child.stdout is not None
        stream = self.child.stdout
        self.reader = threading.Thread(target=lambda: self.lines.extend(iter(stream.readline, "")))
        self.reader.start()

    def found(self, pattern: str) -> str | None:
        """The first line so far matching ``pattern``."""
        return next((line for line in list(self.lines) if re.search(pattern, line)), None)

    def wait_for(self, pattern: str, timeout: float = 2 * DEFAULT_TIMEOUT) -> str:
        """The first line matching ``pattern``, once it has come."""
        try:
            wait_sync(lambda: self.found(pattern), timeout, f"a line matching {pattern!r}")
        except AssertionError as error:
            raise AssertionError(f"{error}; the output:\n{''.join(self.lines)}") from None
        return self.found(pattern) or ""

    def change(self, path: Path, text: str, seen: str) -> None:
        """Write ``path``, touching it again until the watcher says ``seen`` (it may not have
        been listening yet when the first write came)."""
        path.write_text(text)
        for _ in range(12):
            try:
                self.wait_for(seen, timeout=5)
                return
            except AssertionError:
                os.utime(path)
        self.wait_for(seen, timeout=1)

    def interrupt(self) -> int:
        """Ctrl-C, as a terminal sends it to the child's process group; its exit status."""
        os.killpg(self.child.pid, signal.SIGINT)
        return self.child.wait(timeout=scaled(30))

    def stop(self) -> int:
        """Ctrl-C if it still runs, then its exit status (killed if it does not end)."""
        try:
            return self.child.wait(timeout=0) if self.child.poll() is not None else self.interrupt()
        finally:
            if self.child.poll() is None:
                os.killpg(self.child.pid, signal.SIGKILL)
                self.child.wait()
            self.reader.join(timeout=scaled(5))
