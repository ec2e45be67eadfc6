"""In a real terminal (tmux) at 100x30: the run view keeps every figure and each case's
time, tokens and scores on screen, shows the tool call in flight, and ``t`` ends it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.tui.editor.test_editor_terminal import APP, Tmux
from tests.waiting import wait_sync

from .test_run_live_steps import rome_workspace

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


def wait_screen(tmux: Tmux, shown: Callable[[str], bool], what: str) -> None:
    """Wait until the screen shows ``what``; a failure says what the screen showed last."""
    try:
        wait_sync(lambda: shown(tmux.screen()), what=what)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the screen:\n{tmux.screen()}") from None


def test_the_run_view_at_100x30_in_a_terminal(tmp_path: Path) -> None:
    root = rome_workspace(tmp_path)
    tmux = Tmux()
    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "100", "-y", "30",
            f"cd {root} && env -u COLUMNS -u LINES TERM=xterm-256color {APP} .",
        )  # fmt: skip
        wait_screen(tmux, lambda s: "Editor" in s or "editor" in s, "the app")
        tmux.run("send-keys", "-t", "app", "r")
        wait_screen(tmux, lambda s: "tenxeval · run" in s, "the run view")
        tmux.run("send-keys", "-t", "app", "C-r")
        wait_screen(tmux, lambda s: "calling get_weather(" in s, "Rome's call in its row")
        wait_screen(tmux, lambda s: "2/3 done" in s, "Paris and Oslo done")
        screen = tmux.screen()
        for figure in ("pass rate 50% [9-91]", "traj ", "resp ", "elapsed ", "cases/s", "tokens"):
            assert figure in screen, f"{figure!r} is not on screen:\n{screen}"
        header = next(line for line in screen.splitlines() if "│    case" in line)
        assert "time" in header and "tokens" in header and "scores" in header, screen
        tmux.run("send-keys", "-t", "app", "Down")  # Rome
        wait_screen(tmux, lambda s: "▶ calling" in s, "Rome's step over its events")
        tmux.run("send-keys", "-t", "app", "t")  # asks first: it cannot be undone
        # the dialog's own answer: the footer names the key's action ("End tool call") already
        wait_screen(tmux, lambda s: "End the call (e)" in s, "the question")
        tmux.run("send-keys", "-t", "app", "e")
        wait_screen(tmux, lambda s: "Run finished" in s, "the run to finish")
        assert "timed out" in tmux.screen() or "ToolCallTimeout" in tmux.screen()
        tmux.run("send-keys", "-t", "app", "C-q")
        wait_sync(lambda: not tmux.alive(), what="the app to quit")
    finally:
        tmux.kill()
