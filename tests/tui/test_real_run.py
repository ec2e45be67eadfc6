"""The app started the way users start it (``App.run``), not only under ``run_test``.

``App.run`` installs an eager task factory on Python 3.12+, which changes the order in
which widgets mount; ``run_test`` does not, so this path needs its own test, in a
child process so that what the app prints on a crash is seen.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tests.waiting import scaled

SCRIPT = """
import sys
from tenxeval_tui.app import WorkbenchApp

app = WorkbenchApp(sys.argv[1], watch_files=False)
seen = []

async def drive(pilot):
    await pilot.pause()
    seen.append(type(pilot.app.screen).__name__)
    pilot.app.exit()

app.run(headless=True, size=(100, 30), auto_pilot=drive)
print("screens:", seen)
"""


def test_the_app_starts_and_quits_under_app_run(tmp_path: Path) -> None:
    (
        EvalSetBuilder("weather")
        .add_case(
            "Weather in London?",
            "Sunny in London.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London"})],
            tags=["smoke"],
        )
        .add_multi_turn([("Hi", "Hello!"), ("Paris?", "18C")], expected_tools=["get_weather"])
        .save(tmp_path / "weather.evalset.json")
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
    )
    output = done.stdout + done.stderr
    assert "screens: ['EditorScreen']" in done.stdout, output
    assert "Error" not in output and "Traceback" not in output, output
