"""`run --open` when there is nothing to open: it says so on stderr, even with -q (the
cases with a browser, and with none at hand, are in test_run.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT


def test_open_with_no_html_report_says_there_is_none_to_open(
    project: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = project / "browser.sh"
    record.write_text('#!/bin/sh\necho "$1" > "$(dirname "$0")/opened.txt"\n')
    record.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(record))
    run = ["run", "--agent", AGENT, "evals", "--tags", "smoke", "--open", "--no-html", "-q"]
    done = in_process(project, *run)
    assert done.returncode == 0, done.stderr
    # before: nothing said, and nothing opened
    assert (
        "tenxeval-tui run: --open: no HTML report was written (--no-html?): there is none to open"
        in done.stderr
    )
    assert not list(project.rglob("*.html")) and not (project / "opened.txt").exists()
