"""The run screen under the faults `run` is tested with (tests/cli/test_worker_faults.py): a
tool thread still running after its case timed out, an agent blocking the worker's event
loop, and worker processes that all die. The run ends, every case with an outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalConfig
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.screens.run.run import RunScreen

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


def _rome_error(screen: RunScreen) -> str:
    """The error of the case that hangs (Rome), which must have ended as one."""
    assert screen.live is not None
    rome = next(c for c in screen.live.cases.values() if c.eval_id == "rome")
    assert rome.status is CaseStatus.ERROR
    assert rome.result is not None and rome.result.error is not None
    return rome.result.error


def _timeout_of_one_second(root: Path) -> None:
    config = EvalConfig.default()
    config.timeout = 1.0
    config.to_file(root / "quick.json")
    _with_settings(root, 'config = "quick.json"\n')


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


@pytest.mark.parametrize(
    ("agent_code", "error", "said"),
    [
        # before: the worker waited 300 s at its end for the thread
        (HUNG_TOOL_THREAD, "timed out after 1s (turn 1 of 1)", "Run finished"),
        # before: it ran until cancelled by hand
        (
            BLOCKS_ITS_LOOP,
            "timed out after 1s: the agent never gave control back",
            "case rome ran past its deadline (1s)",
        ),
    ],
    ids=["tool-thread-left-running", "event-loop-blocked"],
)
async def test_a_case_that_hangs_ends_as_timed_out_and_the_run_ends(
    tmp_path: Path, agent_code: str, error: str, said: str
) -> None:
    root = write_workspace(tmp_path / "ws", agent_code=agent_code)
    _timeout_of_one_second(root)
    app = WorkbenchApp(root)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await run_all(app, pilot)
        assert _rome_error(screen).startswith(error)
        assert said in message(screen)
    written = [json.loads(p.read_text()) for p in (root / "reports").glob("*.json")]
    found = {r["eval_id"]: r["error"] for report in written for r in report["results"]}
    assert str(found["rome"]).startswith(error)  # in the report (partial when blocked)
