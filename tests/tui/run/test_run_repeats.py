"""A case run several times: its row says how many of its repeats are done (2/3), each
event line says which repeat it is of, and stopping it stops every repeat."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.widgets.run.event_stream import EventStream
from tests.waiting import wait_for

from .test_run_live_steps import rome_workspace, row_text, start_and_select_rome

ROME = "cities::rome"


def repeated_workspace(tmp_path: Path, repeats: int) -> Path:
    root = rome_workspace(tmp_path)
    (root / "evals" / "config.json").write_text(json.dumps({"repeats": repeats}), "utf-8")
    settings = root / "pyproject.toml"
    text = settings.read_text("utf-8").replace("concurrency = 2", "concurrency = 9")
    settings.write_text(text + 'config = "evals/config.json"\n', encoding="utf-8")
    return root


async def test_repeats_show_their_progress_and_number_their_event_lines(tmp_path: Path) -> None:
    root = repeated_workspace(tmp_path, 3)
    async with WorkbenchApp(root).run_test(size=(160, 45)) as pilot:
        screen = await start_and_select_rome(pilot)
        live = screen.live
        assert live is not None
        # Rome's three runs all wait in their tool call: none done of 3.
        await wait_for(pilot, lambda: live.cases[ROME].repeats == 3)
        await wait_for(pilot, lambda: "▶ 0/3" in row_text(screen, ROME))
        stream = screen.query_one(EventStream)
        await wait_for(pilot, lambda: len(stream.lines) >= 3)
        marks = sorted(str(line).split()[0] for line in stream.lines)
        assert marks == ["#1", "#2", "#3"]  # one MAIN line of each run

        await pilot.press("x")  # stopping the case stops every run of it
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.runs_finished == 1)
        state = live.cases[ROME]
        assert state.status == CaseStatus.CANCELLED and state.repeats_done == 3
        assert state.result is not None and len(state.result.runs) == 3
        assert all(run.error and "cancelled by the user" in run.error for run in state.result.runs)
