"""Accept actual from the run view: a real run of the plain sample agent, ``a`` on its
failing case, the reply written through the editor's document; the rerun then passes."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus, case_key
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.run.run import RunScreen

from .conftest import open_run_screen, wait_until

SAMPLES = Path(__file__).resolve().parents[3] / "sample_evals"
WRONG = case_key("plain_agent", "wrong_status")
"""The sample's case that fails on purpose: it expects a reply the agent does not give."""


def sample_project(root: Path) -> Path:
    """The plain sample agent and its eval set, written a minute ago; the eval set's path."""
    package = root / "sample_evals"
    package.mkdir(parents=True)
    for name in ("__init__.py", "plain_agent.py", "plain_agent.evalset.json"):
        shutil.copy(SAMPLES / name, package / name)
    (root / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "sample_evals.plain_agent:support_agent"\n'
        'output_dir = "reports"\nconcurrency = 2\n',
        encoding="utf-8",
    )
    eval_set = package / "plain_agent.evalset.json"
    past = time.time() - 60
    os.utime(eval_set, (past, past))
    return eval_set


def wrong_status_turn(eval_set: Path) -> dict[str, object]:
    cases = json.loads(eval_set.read_text(encoding="utf-8"))["eval_cases"]
    turn: dict[str, object] = next(c for c in cases if c["eval_id"] == "wrong_status")[
        "conversation"
    ][0]
    return turn


def notices(app: WorkbenchApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_accept_in_the_run_view_then_the_case_passes_on_rerun(tmp_path: Path) -> None:
    eval_set = sample_project(tmp_path / "project")
    before = eval_set.read_text(encoding="utf-8")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await open_run_screen(pilot)
        assert isinstance(run, RunScreen)
        assert run.check_action("accept_actual", ()) is False  # nothing has run
        await pilot.press("ctrl+r")
        await wait_until(lambda: run.runs_finished == 1, pilot, what="the first run")
        assert run.live is not None and run.live.cases[WRONG].status == CaseStatus.FAILED
        for _ in range(len(run.live.cases)):
            if run.selected == WRONG:
                break
            await pilot.press("down")
        await wait_until(lambda: run.selected == WRONG, pilot, what="wrong_status selected")
        assert run.check_action("accept_actual", ()) is True
        assert "a" in {b.key for b in RunScreen.BINDINGS if hasattr(b, "key")}

        await pilot.press("a")
        await wait_until(lambda: isinstance(app.screen, ChoiceScreen), pilot, what="the dialog")
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        lines = dialog.details.splitlines()
        assert any(
            line.startswith("-") and "Order A100 was delivered yesterday" in line for line in lines
        )
        assert any(
            line.startswith("+") and '"Order A100 is shipped, expected Friday."' in line
            for line in lines
        )
        assert eval_set.read_text(encoding="utf-8") == before  # nothing written before asked
        await pilot.press("r")  # the reply only
        await wait_until(
            lambda: any("now expects" in n for n in notices(app)), pilot, what="accepted"
        )
        assert isinstance(app.screen, EditorScreen)
        turn = wrong_status_turn(eval_set)
        reply = turn["expected_final_response"]
        assert isinstance(reply, dict)
        assert reply["content"] == "Order A100 is shipped, expected Friday."
        assert turn["expected_node_order"] == []  # not chosen: kept as it was

        await pilot.press("r")  # back to the run view, the case still selected
        await wait_until(lambda: app.screen is run, pilot, what="the run view again")
        assert run.selected == WRONG
        await pilot.press("s")  # rerun it
        await wait_until(lambda: run.runs_finished == 2, pilot, what="the rerun")
        assert run.request is not None and list(run.request.only.values()) == [["wrong_status"]]
        assert run.live is not None and run.live.cases[WRONG].status == CaseStatus.PASSED


async def test_the_run_view_refuses_when_the_file_changed_since_the_run(tmp_path: Path) -> None:
    eval_set = sample_project(tmp_path / "project")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await open_run_screen(pilot)
        assert isinstance(run, RunScreen)
        await pilot.press("ctrl+r")
        await wait_until(lambda: run.runs_finished == 1, pilot, what="the run")
        text = eval_set.read_text(encoding="utf-8")
        eval_set.write_text(text, encoding="utf-8")  # written after the run
        run.query_one("#run-cases").move_to(WRONG)  # type: ignore[attr-defined]
        await wait_until(lambda: run.selected == WRONG, pilot, what="wrong_status selected")
        await pilot.press("a")
        await wait_until(
            lambda: any("changed on disk since this run" in n for n in notices(app)),
            pilot,
            what="the refusal",
        )
        assert app.screen is run
        assert eval_set.read_text(encoding="utf-8") == text
        await pilot.press("enter")  # the case's detail has the key too, with the run's time
        await wait_until(lambda: isinstance(app.screen, CaseScreen), pilot, what="the detail")
        detail = app.screen
        assert isinstance(detail, CaseScreen)
        assert detail.run_timestamp is not None and detail.run_timestamp > 0
        assert detail.check_action("accept_actual", ()) is True
