"""In a real terminal (tmux) at 100x30: the run view keeps every figure and each case's
time, tokens and scores on screen, shows the tool call in flight, and ``t`` ends it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.tui.editor.test_editor_terminal import APP, Tmux
from tests.waiting import wait_sync

from .test_run_live_steps import rome_workspace

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


def test_the_run_view_at_100x30_in_a_terminal(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)
    tmux = Tmux()
    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "100", "-y", "30",
            f"cd {root} && env -u COLUMNS -u LINES TERM=xterm-256color {APP} .",
        )  # fmt: skip
        wait_sync(lambda: "Editor" in tmux.screen() or "editor" in tmux.screen(), what="the app")
        tmux.run("send-keys", "-t", "app", "r")
        wait_sync(lambda: "tenxeval · run" in tmux.screen(), what="the run view")
        tmux.run("send-keys", "-t", "app", "C-r")
        wait_sync(lambda: "calling get_weather(" in tmux.screen(), what="Rome's call in its row")
        wait_sync(lambda: "2/3 done" in tmux.screen(), what="Paris and Oslo done")
        screen = tmux.screen()
        for figure in ("pass rate 50% [9-91]", "traj ", "resp ", "elapsed ", "cases/s", "tokens"):
            assert figure in screen, f"{figure!r} is not on screen:\n{screen}"
        header = next(line for line in screen.splitlines() if "│    case" in line)
        assert "time" in header and "tokens" in header and "scores" in header, screen
        tmux.run("send-keys", "-t", "app", "Down")  # Rome
        wait_sync(lambda: "▶ calling" in tmux.screen(), what="Rome's step over its events")
        tmux.run("send-keys", "-t", "app", "t")  # asks first: it cannot be undone
        wait_sync(lambda: "End tool call" in tmux.screen(), what="the question")
        tmux.run("send-keys", "-t", "app", "e")
        wait_sync(lambda: "Run finished" in tmux.screen(), what="the run to finish")
        assert "timed out" in tmux.screen() or "ToolCallTimeout" in tmux.screen()
        tmux.run("send-keys", "-t", "app", "C-q")
        wait_sync(lambda: not tmux.alive(), what="the app to quit")
    finally:
        tmux.kill()
