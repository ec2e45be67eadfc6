"""Accept actual from the run view: a real run of the plain sample agent, ``a`` on its
failing case, the reply written through the editor's document; the rerun then passes."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus, case_key
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.reports.case_detail import CaseScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.tui.conftest import notifications, wait_for_form
from tests.waiting import wait_for

from .conftest import open_run_screen

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


async def test_accept_in_the_run_view_then_the_case_passes_on_rerun(tmp_path: Path) -> None:
    eval_set = sample_project(tmp_path / "project")
    before = eval_set.read_text(encoding="utf-8")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await open_run_screen(pilot)
        assert isinstance(run, RunScreen)
        assert run.check_action("accept_actual", ()) is False  # nothing has run
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: run.runs_finished == 1, what="the first run")
        assert run.live is not None and run.live.cases[WRONG].status == CaseStatus.FAILED
        for _ in range(len(run.live.cases)):
            if run.selected == WRONG:
                break
            await pilot.press("down")
        await wait_for(pilot, lambda: run.selected == WRONG, what="wrong_status selected")
        assert run.check_action("accept_actual", ()) is True
        assert "a" in {b.key for b in RunScreen.BINDINGS if hasattr(b, "key")}

        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen), what="the dialog")
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
        await wait_for(
            pilot, lambda: any("now expects" in n for n in notifications(app)), what="accepted"
        )
        assert isinstance(app.screen, EditorScreen)
        turn = wrong_status_turn(eval_set)
        reply = turn["expected_final_response"]
        assert isinstance(reply, dict)
        assert reply["content"] == "Order A100 is shipped, expected Friday."
        assert turn["expected_node_order"] == []  # not chosen: kept as it was

        await pilot.press("r")  # back to the run view, the case still selected
        await wait_for(pilot, lambda: app.screen is run, what="the run view again")
        assert run.selected == WRONG
        await pilot.press("s")  # rerun it
        await wait_for(pilot, lambda: run.runs_finished == 2, what="the rerun")
        assert run.request is not None and list(run.request.only.values()) == [["wrong_status"]]
        assert run.live is not None and run.live.cases[WRONG].status == CaseStatus.PASSED


async def test_the_run_view_refuses_when_the_file_changed_since_the_run(tmp_path: Path) -> None:
    eval_set = sample_project(tmp_path / "project")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await open_run_screen(pilot)
        assert isinstance(run, RunScreen)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: run.runs_finished == 1, what="the run")
        text = eval_set.read_text(encoding="utf-8")
        eval_set.write_text(text, encoding="utf-8")  # written after the run
        run.query_one("#run-cases").move_to(WRONG)  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: run.selected == WRONG, what="wrong_status selected")
        await pilot.press("a")
        await wait_for(
            pilot,
            lambda: any("changed on disk since this run" in n for n in notifications(app)),
            what="the refusal",
        )
        assert app.screen is run
        assert eval_set.read_text(encoding="utf-8") == text
        await pilot.press("enter")  # the case's detail has the key too, with the run's time
        await wait_for(pilot, lambda: isinstance(app.screen, CaseScreen), what="the detail")
        detail = app.screen
        assert isinstance(detail, CaseScreen)
        assert detail.run_timestamp is not None and detail.run_timestamp > 0
        assert detail.check_action("accept_actual", ()) is True


GREETING = case_key("plain_agent", "greeting")
OFF_TOPIC = case_key("plain_agent", "off_topic")


def three_failing_project(root: Path) -> Path:
    """The plain sample, where ``greeting`` and ``off_topic`` expect another reply too (so
    ``wrong_status``, ``greeting`` and ``off_topic`` fail on their reply alone)."""
    eval_set = sample_project(root)
    text = eval_set.read_text(encoding="utf-8")
    text = text.replace("Hello Ada! How can I help with your order?", "Hello Ada, what now?")
    text = text.replace("I can help with orders and refunds.", "Orders and refunds only.")
    eval_set.write_text(text, encoding="utf-8")
    past = time.time() - 60
    os.utime(eval_set, (past, past))
    return eval_set


def case_bytes(text: str, eval_id: str) -> str:
    """The bytes of case ``eval_id`` as the sample's file writes it."""
    start = text.index(f'    {{\n      "eval_id": "{eval_id}"')
    return text[start : text.index("\n    }", start) + 6]


async def finished_run(pilot: object, app: WorkbenchApp) -> RunScreen:
    run = await open_run_screen(pilot)  # type: ignore[arg-type]
    assert isinstance(run, RunScreen)
    await pilot.press("ctrl+r")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: run.runs_finished == 1, what="the run")  # type: ignore[arg-type]
    assert run.live is not None
    failed = {k for k, s in run.live.cases.items() if s.status == CaseStatus.FAILED}
    assert failed == {WRONG, GREETING, OFF_TOPIC}
    return run


async def select(pilot: object, run: RunScreen, *keys: str) -> RunCaseTable:
    table = run.query_one(RunCaseTable)
    for key in keys:
        assert table.move_to(key)
        await wait_for(pilot, lambda: run.selected == key, what=f"{key} under the cursor")  # type: ignore[arg-type]  # noqa: B023
        await pilot.press("space")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: table.marked_keys == list(keys), what="the selection")  # type: ignore[arg-type]
    return table


async def test_two_selected_cases_accepted_from_the_run_view_one_ctrl_z_undoes_them(
    tmp_path: Path,
) -> None:
    eval_set = three_failing_project(tmp_path / "project")
    before = eval_set.read_text(encoding="utf-8")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await finished_run(pilot, app)
        table = await select(pilot, run, WRONG, GREETING)
        assert "2 selected" in str(table.border_subtitle)
        assert run.check_action("accept_many", ()) is True
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen), what="the dialog")
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "2 selected case(s)" in dialog.question
        summary = dialog.details.split("\n\n")[0].splitlines()
        assert [line.split(":")[0] for line in summary] == ["greeting", "wrong_status"]
        assert "off_topic" not in dialog.details  # failed, not selected
        assert eval_set.read_text(encoding="utf-8") == before
        await pilot.press("a")  # reply, tools and nodes, for both
        await wait_for(
            pilot,
            lambda: any("2 case(s)" in n and "now expect" in n for n in notifications(app)),
            what="accepted",
        )
        assert isinstance(app.screen, EditorScreen)
        editor = app.screen
        after = eval_set.read_text(encoding="utf-8")
        cases = {c["eval_id"]: c for c in json.loads(after)["eval_cases"]}
        assert cases["greeting"]["conversation"][0]["expected_final_response"]["content"] == (
            "Hello Ada! How can I help with your order?"
        )
        turn = wrong_status_turn(eval_set)
        assert turn["expected_node_order"] == ["ROUTER", "ANSWER"]
        for eval_id in cases.keys() - {"greeting", "wrong_status"}:  # off_topic too
            assert case_bytes(before, eval_id) in after, eval_id
        assert editor.document is not None and not editor.document.dirty
        await pilot.press("ctrl+z")  # one step takes both back
        await wait_for(
            pilot, lambda: editor.document is not None and editor.document.dirty, what="undone"
        )
        assert not editor.document.can_undo
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: json.loads(eval_set.read_text(encoding="utf-8")) == json.loads(before),
            what="the file as before",
        )


async def test_the_rule_without_a_selection_then_a_refusal_once_the_file_changed(
    tmp_path: Path,
) -> None:
    eval_set = three_failing_project(tmp_path / "project")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await finished_run(pilot, app)
        await pilot.press("A")  # nothing selected: the cases that failed on their reply alone
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen), what="the dialog")
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "3 case(s) that failed on their reply alone" in dialog.question
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is run, what="the run view again")

        text = eval_set.read_text(encoding="utf-8")
        eval_set.write_text(text, encoding="utf-8")  # written after the run
        await select(pilot, run, WRONG, OFF_TOPIC)
        await pilot.press("A")
        await wait_for(
            pilot,
            lambda: any("changed on disk since this run" in n for n in notifications(app)),
            what="the refusal",
        )
        assert app.screen is run
        assert eval_set.read_text(encoding="utf-8") == text


async def test_unsaved_changes_in_the_editor_are_not_overwritten(tmp_path: Path) -> None:
    eval_set = three_failing_project(tmp_path / "project")
    before = eval_set.read_text(encoding="utf-8")
    app = WorkbenchApp(tmp_path / "project", watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        run = await finished_run(pilot, app)
        await pilot.press("e")
        await wait_for_form(pilot)
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        editor.query_one("#f-name", Input).value = "renamed, not saved"
        assert editor.document is not None and editor.document.dirty
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen is run, what="the run view again")
        await select(pilot, run, WRONG, GREETING)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen), what="the dialog")
        await pilot.press("a")
        await wait_for(
            pilot,
            lambda: any("has unsaved changes in the editor" in n for n in notifications(app)),
            what="the refusal",
        )
        assert eval_set.read_text(encoding="utf-8") == before
        assert editor.document.dirty  # the edit is still there, to save or undo
