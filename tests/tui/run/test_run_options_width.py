"""The run view's options bar shows every field whole at every width: the agent box too
(from 120 to 159 columns it once got no room at all, yet took the focus and what was typed
in it, and the case filter read `case ids o`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp

from .conftest import open_run_screen, wait_for

AGENT_PLACEHOLDER = len("agent module:attribute")
FILTER_PLACEHOLDER = len("case ids or #tags")


@pytest.mark.parametrize("width", [80, 119, 120, 140, 159, 160, 200])
async def test_the_agent_box_and_the_case_filter_are_whole_at_every_width(
    workspace: Path, width: int
) -> None:
    app = WorkbenchApp(workspace, watch_files=False)
    async with app.run_test(size=(width, 36)) as pilot:
        await open_run_screen(pilot)
        screen = app.screen
        watch = screen.query_one("#watch")
        agent = screen.query_one("#agent", Input)
        case_filter = screen.query_one("#case-filter", Input)

        def whole() -> bool:  # a first layout may come before the bar takes its two lines
            return (
                agent.region.width >= AGENT_PLACEHOLDER + 2
                and case_filter.region.width >= FILTER_PLACEHOLDER + 2
                and 0 < watch.region.right <= width
            )

        await wait_for(pilot, whole, what="the agent box, the case filter and watch whole")
        assert agent.region.width >= AGENT_PLACEHOLDER + 2, agent.region
        assert case_filter.region.width >= FILTER_PLACEHOLDER + 2, case_filter.region
        assert watch.region.right <= width, watch.region
