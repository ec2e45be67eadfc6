"""The case form completes tool names, argument keys and node names from the agent's own
schema, and warns (without blocking the save) when a call does not fit the agent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tests.tui.conftest import notifications, to_field, wait_for, wait_for_form
from tests.tui.sample_project import sample_project

pytestmark = pytest.mark.agent_schema_child  # the subject: the child and its caches


def told(app: WorkbenchApp) -> int:
    """How many toasts said the agent gives no completion."""
    return sum("No completion from the agent" in n for n in notifications(app))


def editor(app: WorkbenchApp) -> EditorScreen:
    return next(s for s in app.screen_stack if isinstance(s, EditorScreen))


def field(app: WorkbenchApp, key: str) -> CaseField:
    return next(f for f in app.screen.query(CaseField) if f.key == key)


def box(app: WorkbenchApp, key: str) -> Input:
    editor_box = field(app, key).editor
    assert isinstance(editor_box, Input)
    return editor_box


def suggests(app: WorkbenchApp, key: str, completion: str) -> bool:
    # What the input shows greyed after the cursor (→ accepts it).
    return box(app, key)._suggestion == completion


async def test_a_graphs_tool_and_argument_complete_and_a_wrong_type_is_a_warning(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/weather_graph.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        await pilot.press("enter", "ctrl+o")  # a new call in the first case's turn
        name = "turns.0.tools.1.name"
        await wait_for(pilot, lambda: app.screen.focused is box(app, name))
        await wait_for(pilot, lambda: field(app, name).note == "tools: get_weather")
        await pilot.press(*"get_w")
        await wait_for(pilot, lambda: suggests(app, name, "get_weather"))
        await pilot.press("right", "tab")
        await wait_for(pilot, lambda: box(app, name).value == "get_weather")
        args = "turns.0.tools.1.args"
        await wait_for(pilot, lambda: app.screen.focused is box(app, args))
        await pilot.press(*'{"lo')
        await wait_for(pilot, lambda: suggests(app, args, '{"location": '))
        await pilot.press("right", *"42}")
        await wait_for(pilot, lambda: field(app, args).has_class("-warning"))
        assert field(app, args).note == "⚠ location: expected string, got integer"
        document = editor(app).document
        assert document is not None and document.problems() == []  # no obstacle to saving
        await pilot.press(*("backspace",) * 3, *'"Rome"}')
        await wait_for(pilot, lambda: not field(app, args).has_class("-warning"))
        assert field(app, args).note == (
            "get_weather(location: string): Current weather for a city."
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not document.dirty)
        saved = json.loads(path.read_text(encoding="utf-8"))
        calls = saved["eval_cases"][0]["conversation"][0]["expected_tool_trajectory"]
        assert calls[1]["name"] == "get_weather" and calls[1]["args"] == {"location": "Rome"}


async def test_a_plain_agents_declared_tools_and_nodes_complete(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/plain_agent.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="schema read")
        await to_field(pilot, "eval_id", "enter")  # into the form, before focusing a field
        name = "turns.0.tools.0.name"
        form.focus_field(name)
        await pilot.press(*("backspace",) * len("lookup_order"), *"ref")
        await wait_for(pilot, lambda: suggests(app, name, "refund"))
        await pilot.press("right")
        args = "turns.0.tools.0.args"
        await wait_for(pilot, lambda: field(app, args).has_class("-warning"))
        assert field(app, args).note == "⚠ missing required argument 'reason'"
        nodes = "turns.0.nodes"
        form.focus_field(nodes)
        await pilot.press("end", ",", " ", "A")
        await wait_for(pilot, lambda: suggests(app, nodes, "ROUTER, ANSWER, ANSWER"))
        await pilot.press("backspace", "Z")
        await wait_for(pilot, lambda: field(app, nodes).has_class("-warning"))
        assert field(app, nodes).note == "⚠ the agent has no node 'Z' (it has: ROUTER, ANSWER)"


async def test_an_agent_that_cannot_be_read_is_said_once_and_nothing_completes(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    (project / "broken_agent.py").write_text("raise RuntimeError('no config')\n", "utf-8")
    path = project / "sample_evals/weather_graph.evalset.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metadata"]["agent"] = "broken_agent:graph"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await wait_for(pilot, lambda: screen.agent_schema_error is not None)
        assert screen.agent_schema_error.startswith(
            "agent 'broken_agent:graph': importing 'broken_agent' raised RuntimeError: no config"
        )
        # a toast is a message the app handles later: wait for it, then count
        await wait_for(pilot, lambda: told(app) >= 1, what="the toast")
        assert told(app) == 1
        assert app.screen.query_one(CaseForm).completion.schema is None
        asked: list[str] = []  # the schema asked again for the next case (from the cache)
        get = screen.schemas.get

        async def counting_get(spec: str, folder: Path) -> Any:
            found = await get(spec, folder)
            asked.append(spec)
            return found

        screen.schemas.get = counting_get  # type: ignore[method-assign]
        await pilot.press("down")  # another case: the failure is kept a while, not re-read
        await wait_for(
            pilot, lambda: app.screen.query_one(CaseForm).uid == screen.document.cases[1].uid
        )
        # the read_agent_schema worker for that case has asked and ended: had it read the
        # agent again or said it again, it would have by now
        await wait_for(
            pilot,
            lambda: (
                asked
                and not any(w.group == "agent-schema" and not w.is_finished for w in app.workers)
            ),
            what="the next case's schema asked",
        )
        await pilot.pause()  # a toast it posted would be handled by now
        assert screen.schemas.reads == 1
        assert told(app) == 1


async def test_an_agent_outside_the_workspace_is_read_once_while_moving_through_cases(
    tmp_path: Path, monkeypatch: Any
) -> None:
    # The agent's code is found on PYTHONPATH, outside the workspace: the cache follows
    # none of its files. Each case shown asked a child process for its schema again.
    elsewhere = sample_project(tmp_path / "elsewhere")
    monkeypatch.setenv("PYTHONPATH", str(elsewhere))
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "pyproject.toml").write_text("[tool.tenxeval]\n", encoding="utf-8")
    path = workspace / "plain_agent.evalset.json"
    path.write_bytes((elsewhere / "sample_evals/plain_agent.evalset.json").read_bytes())
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        form = app.screen.query_one(CaseForm)
        await wait_for(pilot, lambda: form.completion.schema is not None, what="the schema")
        for index in range(1, 4):
            await pilot.press("down")
            uid = screen.document.cases[index].uid
            await wait_for(pilot, lambda uid=uid: form.uid == uid, what=f"case {index + 1}")
            await wait_for(
                pilot,
                lambda: (
                    not any(w.group == "agent-schema" and not w.is_finished for w in app.workers)
                ),
                what="the case's schema asked",
            )
        assert form.completion.schema is not None
        assert screen.schemas.reads == 1
