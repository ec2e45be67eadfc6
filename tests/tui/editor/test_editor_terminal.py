"""In a real terminal (tmux): a whole case typed at 30 ms a key is saved as typed.

The app runs as a user runs it, in a tmux pane; keys go in one at a time through
``tmux send-keys``, the way a fast typist's keys reach it, with tab, ctrl+n, ctrl+o and
alt+t between the fields.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.tui.editor.test_editor_typing import expected_case, saved_case
from tests.waiting import wait_sync

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

APP = Path(sys.executable).parent / "tenxeval-tui"
KEY_INTERVAL_S = 0.03

# The case of tests/tui/editor/test_editor_typing.py, as tmux names the keys ("-l" sends text).
TMUX_KEYS: list[tuple[str, ...]] = [
    ("C-n",),
    ("C-u",),
    ("-l", "fast_case_7"),
    ("Tab",),
    ("-l", "Fast typed name"),
    ("Tab",),
    ("-l", "typed description"),
    ("Tab",),
    ("-l", "tag1, tag2"),
    ("Tab",),
    ("-l", "What is the weather?"),
    ("Tab",),
    ("-l", "Sunny in Paris."),
    ("C-o",),
    ("-l", "get_weather"),
    ("Tab",),
    ("-l", '{"city": "Paris"}'),
    ("Tab",),
    ("-l", "weather, reply"),
    ("M-t",),
    ("-l", "And tomorrow?"),
    ("Tab",),
    ("-l", "Rain, sorry."),
    ("BSpace",),
    ("-l", "!"),
]


class Tmux:
    """One detached tmux session on a server of its own (no other session is touched)."""

    def __init__(self) -> None:
        self.socket = f"tenxeval-test-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return result.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "app")

    def alive(self) -> bool:
        probe = subprocess.run(
            ["tmux", "-L", self.socket, "has-session", "-t", "app"], capture_output=True
        )
        return probe.returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def test_a_case_typed_at_30_ms_a_key_in_a_terminal_is_saved_as_typed(weather_set: Path) -> None:
    tmux = Tmux()
    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "120", "-y", "50",
            f"env -u COLUMNS -u LINES TERM=xterm-256color {APP} {weather_set}",
        )  # fmt: skip
        # Ready: the form shows london (the file checked), its fields take keys.
        wait_sync(lambda: "Case #1" in tmux.screen() and "london" in tmux.screen(), what="the form")
        for key in TMUX_KEYS:
            if key[0] == "-l":
                for char in key[1]:
                    tmux.run("send-keys", "-t", "app", "-l", char)
                    time.sleep(KEY_INTERVAL_S)  # the typing pace under test, not a wait
            else:
                tmux.run("send-keys", "-t", "app", *key)
                time.sleep(KEY_INTERVAL_S)  # the typing pace under test, not a wait
        tmux.run("send-keys", "-t", "app", "C-s")

        def saved() -> bool:
            cases = json.loads(weather_set.read_text(encoding="utf-8"))["eval_cases"]
            return len(cases) == 3

        wait_sync(saved, what="the save")
        tmux.run("send-keys", "-t", "app", "C-q")
        wait_sync(lambda: not tmux.alive(), what="the app to quit")  # saved: it did not ask
    finally:
        tmux.kill()
    assert saved_case(weather_set, 1) == expected_case()
