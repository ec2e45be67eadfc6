"""The report folder watcher: what the report list and the flip marks reread on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tenxeval_tui.browsing.report_folder_watch import follow_report_folder
from tests.waiting import wait_async


async def _settle() -> None:
    await asyncio.sleep(0.05)


@asynccontextmanager
async def following(folder: Path) -> AsyncIterator[list[int]]:
    """The watcher on ``folder``, up (its first call seen); yields its calls so far."""
    calls: list[int] = []
    follower = asyncio.create_task(follow_report_folder(folder, lambda: calls.append(1)))
    try:
        # up: one call, so a report written while it was starting is not missed
        await wait_async(lambda: len(calls) == 1, _settle, what="the call once it is up")
        yield calls
    finally:
        follower.cancel()


async def test_it_calls_back_once_up_then_on_each_report(tmp_path: Path) -> None:
    folder = tmp_path / "eval_reports"
    folder.mkdir()
    async with following(folder) as calls:
        (folder / "run.json").write_text("{}", "utf-8")
        await wait_async(lambda: len(calls) >= 2, _settle, what="the call for the report")
        seen = len(calls)
        (folder / "run.json").unlink()
        await wait_async(lambda: len(calls) > seen, _settle, what="the report removed")


async def test_a_folder_made_after_it_started_is_followed(tmp_path: Path) -> None:
    folder = tmp_path / "later" / "eval_reports"
    (tmp_path / "later").mkdir()
    async with following(folder) as calls:
        folder.mkdir()  # the parent was watched: now the folder is
        await wait_async(lambda: len(calls) >= 2, _settle, what="the folder made")
        seen = len(calls)
        (folder / "run.json").write_text("{}", "utf-8")
        await wait_async(lambda: len(calls) > seen, _settle, what="a report in the new folder")


async def test_a_folder_removed_and_made_again_is_followed(tmp_path: Path) -> None:
    # No periodic look any more: the folder's removal and its coming back are events.
    folder = tmp_path / "eval_reports"
    folder.mkdir()
    async with following(folder) as calls:
        folder.rmdir()
        await wait_async(lambda: len(calls) >= 2, _settle, what="the folder removed")
        seen = len(calls)
        folder.mkdir()
        await wait_async(lambda: len(calls) > seen, _settle, what="the folder made again")
        seen = len(calls)
        (folder / "run.json").write_text("{}", "utf-8")
        await wait_async(lambda: len(calls) > seen, _settle, what="a report in the folder")
