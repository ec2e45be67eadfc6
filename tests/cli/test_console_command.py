"""The console script (``tenxeval_tui.cli:command``) ends the process as soon as the
command returns, without the interpreter's teardown, but with its exit code, its
``atexit`` functions run, its output flushed, and a running non-daemon thread waited for."""

from __future__ import annotations

import subprocess
import sys

from tests.waiting import scaled

# The command replaced by one that registers an atexit function, prints without a
# newline (left in the buffer) and, when asked, leaves a thread running that prints.
SCRIPT = """
import atexit, sys, threading
import tenxeval_tui.cli as cli

def command_body():
    atexit.register(lambda: print("atexit ran", flush=True))
    if sys.argv[1] == "thread":
        ready = threading.Event()
        def late():
            ready.wait()
            print("thread ended", flush=True)
        threading.Thread(target=late).start()
        ready.set()
    sys.stdout.write("buffered ")
    return 5

cli.main = command_body
cli.command()
"""


def test_the_console_script_exits_with_the_code_after_atexit_and_flushes() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "plain"], capture_output=True, text=True, timeout=scaled(60)
    )
    assert (done.returncode, done.stdout) == (5, "buffered atexit ran\n"), done.stderr


def test_the_console_script_waits_for_a_thread_that_is_no_daemon() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "thread"], capture_output=True, text=True, timeout=scaled(60)
    )
    assert done.returncode == 5, done.stderr
    assert "thread ended" in done.stdout and "atexit ran" in done.stdout
