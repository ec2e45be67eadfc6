"""`run --log-level` and `-v`: which log records show, and that they print above the progress
bar, never into it (the real console script, in a pseudo-terminal for the bar)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tests.cli.conftest import InProcess
from tests.cli.test_run import SCRIPT, cli
from tests.waiting import scaled

LOGGING_AGENT = """
import asyncio
import logging

log = logging.getLogger("absl")


async def agent(message, trace):
    log.info("Using default tokenizer.")
    log.warning("careful with %s", message)
    await asyncio.sleep(0.2)  # the bar redraws while the case runs
    trace.node("MAIN", response=message)
    return message
"""
INFO = "INFO absl: Using default tokenizer."
WARNING = "WARNING absl: careful with echo 0"


@pytest.fixture
def logging_project(tmp_path: Path) -> Path:
    (tmp_path / "log_agent.py").write_text(LOGGING_AGENT)
    cases = [EvalCase.single_turn(f"c{i}", f"echo {i}", f"echo {i}") for i in range(3)]
    EvalSet(eval_set_id="logs", eval_cases=cases).to_file(tmp_path / "logs.evalset.json")
    return tmp_path


RUN = ("run", "--agent", "log_agent:agent", "logs.evalset.json", "--no-html", "--concurrency", "1")


@pytest.mark.parametrize(
    ("flags", "env", "shown", "hidden"),
    [
        ((), {}, [], [INFO, WARNING]),
        (("-v",), {}, [INFO, WARNING], []),
        (("--log-level", "warning"), {}, [WARNING], [INFO]),
        (("-v", "--log-level", "ERROR"), {}, [], [INFO, WARNING]),
        ((), {"TENXEVAL_LOG_LEVEL": "info"}, [INFO, WARNING], []),
    ],
)
def test_the_level_decides_which_records_show(
    logging_project: Path,
    flags: tuple[str, ...],
    env: dict[str, str],
    shown: list[str],
    hidden: list[str],
) -> None:
    done = cli(logging_project, *RUN, *flags, env=env)
    assert done.returncode == 0, done.stderr
    for line in shown:
        assert line in done.stderr
    for line in hidden:
        assert line not in done.stderr + done.stdout


def test_a_bad_level_is_a_usage_error(logging_project: Path, in_process: InProcess) -> None:
    done = in_process(logging_project, *RUN, "--log-level", "loud")  # argparse's check
    assert done.returncode == 2
    assert "--log-level" in done.stderr and "invalid choice" in done.stderr


def _run_in_terminal(cwd: Path, *args: str) -> tuple[int, bytes]:
    parent, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "LINES": "30", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [str(SCRIPT), *args], stdin=child, stdout=child, stderr=child, cwd=cwd, env=env
    )
    os.close(child)
    output = b""
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # EIO: the terminal's last writer is gone
            break
        if not chunk:
            break
        output += chunk
    os.close(parent)
    return process.wait(timeout=scaled(60)), output


def test_log_lines_print_above_the_bar_not_into_it(logging_project: Path) -> None:
    code, output = _run_in_terminal(logging_project, *RUN, "-v")
    assert code == 0, output.decode(errors="replace")
    assert b"evaluating" in output  # the bar was drawn
    starts = [m.start() for m in re.finditer(re.escape(INFO.encode()), output)]
    assert len(starts) == 3
    for start in starts:
        before = output[:start]
        # each record begins a line of its own: after a newline, or after the bar's line
        # was erased (\r ESC[2K), never straight after the bar's text
        assert before.endswith((b"\n", b"\x1b[2K")), before[-120:]
        line_end = output.index(b"\n", start)
        assert output[start:line_end].rstrip(b"\r") == INFO.encode()
