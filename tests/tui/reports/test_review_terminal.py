"""In a real terminal (tmux, 80x24): review by keyboard, then the app killed mid-review.

The workbench runs as a user runs it; keys go in through ``tmux send-keys``. Each label
is on disk once the screen counts it, so ``kill -9`` right after loses none of them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

from tests.browsing.label_samples import judged_report, write_eval_set, write_report
from tests.tui.editor.test_editor_terminal import Tmux
from tests.waiting import wait_sync

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

APP = Path(sys.executable).parent / "tenxeval-tui"


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def test_labels_given_in_a_terminal_survive_a_kill(tmp_path: Path) -> None:
    write_eval_set(tmp_path, 12)
    (tmp_path / "eval_reports").mkdir()
    write_report(tmp_path / "eval_reports", judged_report([True] * 8 + [False] * 4))
    labels = tmp_path / "weather.labels.jsonl"
    tmux = Tmux()
    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "80", "-y", "24",
            f"env -u COLUMNS -u LINES TERM=xterm-256color TENXEVAL_REVIEWER=alice "
            f"TENXEVAL_CONFIG_DIR={tmp_path / 'config'} TENXEVAL_STATE_DIR={tmp_path / 'state'} "
            f"{APP} {tmp_path}",
        )  # fmt: skip
        wait_sync(lambda: "tenxeval · editor" in tmux.screen(), what="the workbench")
        tmux.run("send-keys", "-t", "app", "b")
        wait_sync(lambda: "Reports in" in tmux.screen(), what="the report list")
        tmux.run("send-keys", "-t", "app", "R")
        wait_sync(lambda: "0 of 12 reviewed" in tmux.screen(), what="review mode")
        assert "hidden until you label this" in tmux.screen()  # blind
        for count, key in enumerate(["p", "f", "p"], start=1):
            tmux.run("send-keys", "-t", "app", key)
            wait_sync(lambda n=count: f"{n} of 12 reviewed" in tmux.screen(), what=f"label {count}")
        pane = int(tmux.run("list-panes", "-t", "app", "-F", "#{pane_pid}").strip())
        for pid in reversed(_descendants(pane)):  # the app this test started, at once
            os.kill(pid, signal.SIGKILL)
        wait_sync(lambda: not tmux.alive(), what="the app to die")
    finally:
        tmux.kill()
    given = [json.loads(line) for line in labels.read_text().splitlines()]
    assert [(g["eval_id"], g["label"], g["reviewer"]) for g in given] == [
        ("c00", "pass", "alice"),
        ("c01", "fail", "alice"),
        ("c02", "pass", "alice"),
    ]
