"""In a real terminal (tmux): a case recorded by chatting with the 10xGraph sample agent
and saved, by keyboard only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.tui.editor.test_editor_terminal import APP, Tmux
from tests.tui.sample_project import sample_project
from tests.waiting import wait_sync

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


def test_a_case_is_recorded_and_saved_by_keyboard_in_a_terminal(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/weather_graph.evalset.json"
    before = len(json.loads(path.read_text(encoding="utf-8"))["eval_cases"])
    tmux = Tmux()

    def keys(*sent: str) -> None:
        tmux.run("send-keys", "-t", "app", *sent)

    def recorded() -> list[dict[str, object]]:
        cases = json.loads(path.read_text(encoding="utf-8"))["eval_cases"]
        return [c for c in cases if c["eval_id"] == "recorded_1"]

    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "120", "-y", "40", "-c", str(project),
            f"env TERM=xterm-256color {APP} {path}",
        )  # fmt: skip
        wait_sync(lambda: "Case #1" in tmux.screen(), what="the form")
        keys("F6")
        wait_sync(lambda: "Talking to the agent" in tmux.screen(), what="the chat ready")
        keys("-l", "What is the weather in Oslo?")
        keys("Enter")
        wait_sync(lambda: "agent: The weather in Oslo is snowing" in tmux.screen(), what="turn 1")
        keys("-l", "What about Tokyo?")
        keys("Enter")
        wait_sync(lambda: "agent: The weather in Tokyo is cloudy" in tmux.screen(), what="turn 2")
        keys("C-s")
        wait_sync(lambda: "Save the conversation as a case" in tmux.screen(), what="the dialog")
        keys("Enter")
        wait_sync(lambda: "Case #2" in tmux.screen(), what="the recorded case in the form")
        keys("C-s")
        wait_sync(lambda: bool(recorded()), what="the save")
        keys("C-q")
        wait_sync(lambda: not tmux.alive(), what="the app to quit")  # saved: it did not ask
    finally:
        tmux.kill()
    cases = json.loads(path.read_text(encoding="utf-8"))["eval_cases"]
    assert len(cases) == before + 1
    (case,) = recorded()
    assert cases[1] is not None and cases[1]["eval_id"] == "recorded_1"  # after the first
    turns = case["conversation"]  # type: ignore[index]
    assert [t["user_content"]["content"] for t in turns] == [
        "What is the weather in Oslo?",
        "What about Tokyo?",
    ]
    assert [t["expected_tool_trajectory"][0]["args"]["location"] for t in turns] == [
        "Oslo",
        "Tokyo",
    ]
