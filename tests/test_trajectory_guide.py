"""The worked example of docs/guides/trajectory-matching.md runs as the page says: its files
are written from the page, its commands run through the real console script, and the
output the page shows is what they print (durations aside)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.waiting import scaled

GUIDE = Path(__file__).resolve().parents[1] / "docs/guides/trajectory-matching.md"
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"
FILE_BLOCK = re.compile(r'```\w+ title="([^"]+)"\n(.*?)```', re.DOTALL)
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
DURATION = re.compile(r"\d+\.\d+s\b")


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the page's console blocks, with the lines it shows."""
    found: list[tuple[str, list[str]]] = []
    for block in CONSOLE_BLOCK.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                found[-1][1].append(line)
    return found


def run(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    assert command.startswith("tenxeval-tui ")
    return subprocess.run(
        [str(SCRIPT), *command.split()[1:]],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "80"},
    )


def test_the_worked_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    files = dict(FILE_BLOCK.findall(text))
    assert set(files) == {"travel_agent.py", "travel.evalset.json", "trajectory.config.json"}
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    broken = files["travel.evalset.json"].replace('"^Os"', '"^(Os"')
    (tmp_path / "broken.evalset.json").write_text(broken, encoding="utf-8")
    commands = sessions(text)
    assert [c.split()[1] for c, _ in commands] == ["validate", "run", "validate"]
    for command, shown in commands:
        done = run(tmp_path, command)
        # times vary; a line wrapped at 80 columns may end in a space the page does not keep
        printed = [line.rstrip() for line in DURATION.sub("X", done.stdout).splitlines()]
        expected = [DURATION.sub("X", line).rstrip() for line in shown]
        # The page shows the output up to the report paths (which name the time).
        assert printed[: len(expected)] == expected, done.stdout + done.stderr


def test_without_ignore_args_the_timestamp_is_named_as_the_page_says(tmp_path: Path) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    files = dict(FILE_BLOCK.findall(text))
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    config = files["trajectory.config.json"].replace('"ignore_args": ["timestamp"],', "")
    (tmp_path / "trajectory.config.json").write_text(config, encoding="utf-8")
    said = re.search(r"```text\n(expected #1 search_flights: .*)\n```", text)
    assert said is not None
    done = run(
        tmp_path,
        "tenxeval-tui run --agent travel_agent:agent travel.evalset.json "
        "--config trajectory.config.json --no-html --case oslo",
    )
    assert said.group(1) in done.stdout
