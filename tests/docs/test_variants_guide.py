"""The worked example of docs/guides/variants.md really runs, and prints what the page
shows (but for the lines that vary: case order, latencies, file names)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.cli.test_run import cli

GUIDE = Path(__file__).resolve().parents[2] / "docs/guides/variants.md"
FILE_BLOCK = re.compile(r'^```\w* title="([\w.]+)"\n(.*?)^```', re.MULTILINE | re.DOTALL)
CONSOLE = re.compile(r"```console\n\$ (.*?)\n(.*?)```", re.DOTALL)
VARYING = re.compile(r"^\[|^\.\.\.|^wrote |latency median")


def test_the_worked_example_runs_as_the_guide_shows(tmp_path: Path) -> None:
    text = GUIDE.read_text()
    files = FILE_BLOCK.findall(text)
    assert [name for name, _ in files] == [
        "support_bot.py",
        "support.evalset.json",
        "variants.toml",
        "config.json",
    ]
    for name, body in files:
        (tmp_path / name).write_text(body)
    command, shown = CONSOLE.search(text).groups()  # type: ignore[union-attr]
    program, *args = shlex.split(command)
    assert program == "tenxeval-tui"
    done = cli(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    for line in shown.splitlines():
        if not VARYING.search(line):
            assert line in done.stdout.splitlines(), line
    assert "[small] FAILED: 3/5 passed" in done.stdout
