"""The footer's keys follow the open file: after a file that does not load (its case keys
dimmed), a file that loads enables them. The focus stays on the case list all along, so
nothing but the editor itself tells the footer (it kept the dimmed keys, most times)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets._footer import FooterKey

from tenxeval_tui.app import WorkbenchApp
from tests.tui.conftest import footer_shows_its_keys, wait_for
from tests.tui.editor.test_editor_snapshots import opened, showing_the_error, write_workspace


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_workspace(tmp_path)  # broken.evalset.json sorts first: it opens first
    return tmp_path


def footer_enables(app: Any, action: str) -> bool | None:
    """Whether the footer shows ``action``'s key enabled (``None``: not shown)."""
    for key in app.screen.query(FooterKey):
        if key.action == action:
            return not key.has_class("-disabled")
    return None


async def test_a_file_that_loads_after_a_broken_one_enables_its_case_keys(
    workspace: Path,
) -> None:
    app = WorkbenchApp(".", watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await showing_the_error(pilot)
        await wait_for(pilot, lambda: footer_shows_its_keys(app), what="the broken file's keys")
        assert footer_enables(app, "new_case") is False
        await pilot.press("ctrl+g", "down", "enter")  # the weather set
        await opened(pilot)
        await wait_for(pilot, lambda: footer_shows_its_keys(app), timeout=10, what="its keys")
        assert footer_enables(app, "new_case") is True
        assert footer_enables(app, "screen.delete_case") is True
