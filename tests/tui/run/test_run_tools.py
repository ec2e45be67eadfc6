"""The run view's tools option (and `tools` in [tool.tenxeval]): a run that records the
tools' calls, then one that replays them: the same outcome, no real tool called, each
call marked in the live view."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.widgets.run.run_options import RunOptions
from tests.waiting import wait_for

from .conftest import AGENT, open_run_screen, write_workspace

# The conftest's agent, its tool also leaving a line in tool-calls.log beside it.
LOGGING_AGENT = AGENT.replace(
    "def get_weather(city: str) -> str:\n",
    "def get_weather(city: str) -> str:\n"
    "    from pathlib import Path\n"
    "    with open(Path(__file__).parent / 'tool-calls.log', 'a') as log:\n"
    "        log.write(city + '\\n')\n",
)


async def test_record_from_the_settings_then_replay_chosen_in_the_options(
    tmp_path: Path,
) -> None:
    root = write_workspace(tmp_path / "ws", agent_code=LOGGING_AGENT)
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + 'tools = "record"\n')
    log = root / "tool-calls.log"
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        assert screen.query_one(RunOptions).choice().tools == "record"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the recording run")
        assert screen.live is not None
        recorded = screen.live.counts()
        assert sorted(log.read_text().split()) == ["Lima", "Oslo", "Paris", "Rome"]
        cassette = (root / "evals/cities.tools.jsonl").read_text()
        assert '"args": {"city": "Paris"}, "result": "sunny in Paris"' in cassette
        log.unlink()

        screen.query_one("#tools", Select).value = "replay"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 2, what="the replaying run")
        assert screen.request is not None and screen.request.tools.mode == "replay"
        assert not log.exists()  # no real tool ran
        assert screen.live.counts() == recorded
        tool_lines = [
            line for case in screen.live.cases.values() for line in case.events if "⚙" in line
        ]
        assert len(tool_lines) == 4
        assert all("get_weather" in line and " · replayed → " in line for line in tool_lines)
