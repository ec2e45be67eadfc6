"""In a real terminal (tmux), a hostile eval set can neither rename the window, nor blank
the screen, nor write the clipboard: the app is opened on it, its case selected, quit."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.tui.untrusted import write_hostile_eval_set
from tests.waiting import wait_sync

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


class Tmux:
    """A tmux server of its own (its own socket), one window of a fixed size."""

    def __init__(self, cwd: Path) -> None:
        self.socket = f"tenxeval-{uuid.uuid4().hex[:8]}"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40")
        self.tmux("set-option", "-g", "set-clipboard", "on")  # OSC 52 would make a buffer
        self.tmux("set-option", "-g", "allow-rename", "on")
        self.send(f"cd {cwd}")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        return done.stdout

    def send(self, *keys: str, enter: bool = True) -> None:
        self.tmux("send-keys", "-t", "t", *keys, *(["Enter"] if enter else []))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def title(self) -> str:
        return self.tmux("display-message", "-p", "-t", "t", "#{pane_title}").strip()

    def buffers(self) -> str:
        return self.tmux("list-buffers")

    def kill(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def tmux(tmp_path: Path):
    server = Tmux(tmp_path)
    try:
        yield server
    finally:
        server.kill()


def test_a_hostile_eval_set_leaves_the_title_screen_and_clipboard_alone(tmp_path: Path, tmux: Tmux):
    write_hostile_eval_set(tmp_path / "hostile.evalset.json")
    # The check can fail: this tmux does take a title (and a buffer) from a program.
    tmux.send("printf '\\033]2;probe\\007'")
    wait_sync(lambda: tmux.title() == "probe", what="tmux to take a title from a program")
    tmux.send("printf '\\033]2;clean\\007'; clear")
    wait_sync(lambda: tmux.title() == "clean", what="the title to be reset")
    assert tmux.buffers() == ""

    tmux.send(f"{sys.executable} -m tenxeval_tui.cli hostile.evalset.json")
    # the editor opens with the hostile case selected: its form is on screen
    wait_sync(
        lambda: "eval_id" in tmux.screen() and "case␛[2J" in tmux.screen(), what="the case form"
    )
    time.sleep(1.0)  # a later repaint is what would blank it; give it the chance
    screen = tmux.screen()
    assert "case␛[2J␛]52;" in screen and "user before␛[2Jafter" in screen
    assert tmux.title() == "clean"

    tmux.tmux("resize-window", "-t", "t", "-x", "110", "-y", "36")  # a redraw
    wait_sync(
        lambda: "eval_id" in tmux.screen() and "user before␛[2J" in tmux.screen(), what="redraw"
    )
    assert tmux.title() == "clean"

    tmux.send("C-q", enter=False)
    wait_sync(lambda: "eval_id" not in tmux.screen(), what="the app to quit")
    tmux.send("echo still-$((40+2))")
    wait_sync(lambda: "still-42" in tmux.screen(), what="the shell to answer after the app")
    assert tmux.title() == "clean"
    assert tmux.buffers() == ""  # no OSC 52 reached tmux's clipboard
