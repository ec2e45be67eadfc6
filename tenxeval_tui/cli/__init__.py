"""The ``tenxeval-tui`` command: argument parsing, the headless run, progress output.

No Textual at import: ``tenxeval-tui --help`` stays fast. :func:`main` is the entry point
(it returns the exit code); :func:`command` is the console script's.
"""

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn

from tenxeval_tui.cli.main import early_run, main


def command() -> NoReturn:
    """The ``tenxeval-tui`` console script: :func:`main`, then the process ends with its
    exit code at once. The ``atexit`` functions run and the standard streams are flushed,
    but the interpreter's teardown (every module and object freed one by one, a twentieth
    of a second after a run, issue #38) is left to the system, as for a worker child. A
    thread still running that is not a daemon is waited for, as Python would.

    A ``run`` may fork its worker child from this process, fresh as it is
    (:mod:`tenxeval_tui.runs.forked_spare`), rather than start another interpreter."""
    if early_run(sys.argv[1:]):
        from tenxeval_tui.runs.forked_spare import allow_fork

        allow_fork()
    code = main()
    main_thread = threading.main_thread()
    if any(t is not main_thread and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


__all__ = ["command", "main"]
