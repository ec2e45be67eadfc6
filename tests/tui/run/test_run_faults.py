"""The run screen under the faults `run` is tested with (tests/cli/test_worker_faults.py): a
tool thread still running after its case timed out, an agent blocking the worker's event
loop, and worker processes that all die. The run ends, every case with an outcome."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalConfig
from tenxeval_tui.runs.live_run import CaseStatus

from .conftest import AGENT, write_workspace
from .test_run_screen import message, run_all

HUNG_TOOL_THREAD = AGENT.replace(
    '    if "slow" in message:\n        await asyncio.sleep(30)\n',
    '    if "Rome" in message:\n        await asyncio.to_thread(time.sleep, 3600)\n',
).replace("import asyncio\n", "import asyncio\nimport time\n")

BLOCKS_ITS_LOOP = AGENT.replace(
    '    if "slow" in message:\n        await asyncio.sleep(30)\n',
    '    if "Rome" in message:\n        time.sleep(3600)  # no timeout can fire on this loop\n',
).replace("import asyncio\n", "import asyncio\nimport time\n")

KILLS_EVERY_WORKER = AGENT.replace(
    "async def agent(message: str, trace: Trace) -> str:\n",
    "async def agent(message: str, trace: Trace) -> str:\n"
    "    os.kill(os.getpid(), signal.SIGKILL)  # whatever process runs it\n",
).replace("import asyncio\n", "import asyncio\nimport os\nimport signal\n")


def _with_settings(root: Path, lines: str) -> None:
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + lines)


def _timeout_of_one_second(root: Path) -> None:
    config = EvalConfig.default()
    config.timeout = 1.0
    config.to_file(root / "quick.json")
    _with_settings(root, 'config = "quick.json"\n')


async def test_a_tool_thread_left_running_by_a_timed_out_case_does_not_hold_up_the_run(
    tmp_path: Path,
) -> None:
    root = write_workspace(tmp_path / "ws", agent_code=HUNG_TOOL_THREAD)
    _timeout_of_one_second(root)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)  # before: the worker waited 300 s for the thread
        assert screen.live is not None
        rome = next(c for c in screen.live.cases.values() if c.eval_id == "rome")
        assert rome.status is CaseStatus.ERROR
        assert rome.result is not None and rome.result.error is not None
        assert rome.result.error.startswith("timed out after 1s")


async def test_when_every_worker_dies_every_case_ends_as_an_error(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", agent_code=KILLS_EVERY_WORKER)
    _with_settings(root, "workers = 2\n")
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert screen.live is not None
        statuses = {c.eval_id: c.status for c in screen.live.cases.values()}
        assert statuses == dict.fromkeys(
            ["paris", "rome", "oslo", "lima", "kyiv"], CaseStatus.ERROR
        )
        assert screen.live.counts()["error"] == 5


async def test_an_agent_blocking_its_event_loop_is_stopped_and_the_run_ends(
    tmp_path: Path,
) -> None:
    root = write_workspace(tmp_path / "ws", agent_code=BLOCKS_ITS_LOOP)
    _timeout_of_one_second(root)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)  # before: it ran until cancelled by hand
        assert screen.live is not None
        rome = next(c for c in screen.live.cases.values() if c.eval_id == "rome")
        assert rome.status is CaseStatus.ERROR
        assert rome.result is not None and rome.result.error is not None
        assert rome.result.error.startswith("timed out after 1s: the agent never gave control")
        assert "case rome ran past its deadline (1s)" in message(screen)
        assert "the cases that finished are in a partial report" in message(screen)
        written = [json.loads(p.read_text()) for p in (root / "reports").glob("*.json")]
        found = {r["eval_id"]: r["error"] for report in written for r in report["results"]}
        assert str(found["rome"]).startswith("timed out after 1s")  # in the partial report
