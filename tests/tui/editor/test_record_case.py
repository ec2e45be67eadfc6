"""Record a case by chatting with the agent (in a child process) and save it as a case."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from textual.widgets import Checkbox, Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import EvalCase
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.evaluator import AgentEvaluator
from tenxeval_tui.evaluation.targets.loader import load_agent
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.editor.record_chat import RecordScreen
from tenxeval_tui.screens.editor.save_recording import SaveRecordingScreen
from tests.tui.conftest import to_widget, wait_for, wait_for_form
from tests.tui.sample_project import sample_project


def editor(app: WorkbenchApp) -> EditorScreen:
    return next(s for s in app.screen_stack if isinstance(s, EditorScreen))


async def say(pilot: Any, screen: RecordScreen, text: str) -> None:
    turns = len(screen.turns)
    await pilot.press(*text, "enter")
    await wait_for(pilot, lambda: len(screen.turns) == turns + 1, what=f"the reply to {text!r}")


async def run_case(project: Path, spec: str, case: dict[str, Any]) -> Any:
    """Run ``case`` against the agent as a run would (default criteria)."""
    app, collector = load_agent(spec, cwd=project)
    evaluator = AgentEvaluator(app, collector, EvalConfig.default())
    return await evaluator.evaluate_case(EvalCase.model_validate(case))


async def record(app: WorkbenchApp, pilot: Any, messages: list[str]) -> RecordScreen:
    await wait_for_form(pilot)
    await pilot.press("f6")
    await wait_for(pilot, lambda: isinstance(app.screen, RecordScreen))
    screen = app.screen
    assert isinstance(screen, RecordScreen)
    await wait_for(pilot, lambda: screen.ready, what="the agent loaded in the child")
    for message in messages:
        await say(pilot, screen, message)
    return screen


async def test_a_two_turn_chat_with_the_graph_becomes_a_case_that_passes(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/weather_graph.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await record(app, pilot, ["What is the weather in Paris?", "What about Rome?"])
        lines = screen.log_lines
        assert "you: What is the weather in Paris?" in lines
        # Each tool call once, as it ended (with how long it took); a step's start has no line.
        rome = r'    ⚙ get_weather\(location="Rome"\) → "sunny, 26°C"  \[\d+\.\d\ds\]'
        assert sum(1 for line in lines if re.fullmatch(rome, line)) == 1, lines
        assert not any("get_weather" in line and "→ null" in line for line in lines), lines
        assert "agent: The weather in Rome is sunny, 26°C." in lines
        document = editor(app).document
        assert document is not None
        before = len(document.cases)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveRecordingScreen))
        assert app.screen.query_one("#record-id", Input).value == "recorded_1"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(document.cases) == before + 1)
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        case = next(c for c in document.cases if c.eval_id == "recorded_1").data
        await wait_for(pilot, lambda: app.screen.query("#f-turns-1-tools-0-args"))
        turns = case["conversation"]
        assert [t["user_content"]["content"] for t in turns] == [
            "What is the weather in Paris?",
            "What about Rome?",
        ]
        assert [t["expected_tool_trajectory"][0]["args"] for t in turns] == [
            {"location": "Paris"},
            {"location": "Rome"},
        ]
        assert [t["expected_node_order"] for t in turns] == [["MAIN", "TOOL", "MAIN"]] * 2
        assert turns[1]["expected_final_response"]["content"] == (
            "The weather in Rome is sunny, 26°C."
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not document.dirty)
    saved = json.loads(path.read_text(encoding="utf-8"))
    recorded = next(c for c in saved["eval_cases"] if c["eval_id"] == "recorded_1")
    result = await run_case(project, "sample_evals.weather_graph:build_graph", recorded)
    assert result.criterion_results, "the default criteria scored the case"
    assert all(r.passed for r in result.criterion_results), result.criterion_results
    assert result.passed


async def test_saving_only_the_tool_calls_of_a_plain_agents_chat_and_undo(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/plain_agent.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await record(app, pilot, ["Where is order A100?", "refund my order please"])
        document = editor(app).document
        assert document is not None
        before = [c.eval_id for c in document.cases]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveRecordingScreen))
        dialog = app.screen
        await to_widget(pilot, "record-id")  # focused on mount: keys before go elsewhere
        await pilot.press(*("backspace",) * len("recorded_1"), *"refund_flow")
        dialog.query_one("#part-replies", Checkbox).focus()
        await pilot.press("space")  # expected replies: off
        dialog.query_one("#part-nodes", Checkbox).focus()
        await pilot.press("space")  # node order: off
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(document.cases) == len(before) + 1)
        case = next(c for c in document.cases if c.eval_id == "refund_flow").data
        turns = case["conversation"]
        assert [t["expected_final_response"] for t in turns] == [None, None]
        assert [t["expected_node_order"] for t in turns] == [[], []]
        assert [t["expected_tool_trajectory"][0]["name"] for t in turns] == [
            "lookup_order",
            "refund",
        ]
        assert turns[1]["expected_tool_trajectory"][0]["args"] == {
            "order_id": "A100",
            "reason": "customer request",
        }
        result = await run_case(project, "sample_evals.plain_agent:support_agent", case)
        assert result.criterion_results and result.passed, result.criterion_results
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await pilot.press("ctrl+z")  # one undo step removes the recorded case
        await wait_for(pilot, lambda: [c.eval_id for c in document.cases] == before)


async def test_restart_starts_a_new_chat_with_the_agents_code_as_it_is_now(
    tmp_path: Path,
) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/plain_agent.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await record(app, pilot, ["thanks"])
        assert screen.turns[0].reply == "I can help with orders and refunds."
        source = project / "sample_evals/plain_agent.py"
        source.write_text(
            source.read_text(encoding="utf-8").replace(
                "I can help with orders and refunds.", "Ask me about your orders."
            ),
            encoding="utf-8",
        )
        await pilot.press("f5")
        await wait_for(pilot, lambda: not screen.turns and screen.ready, what="a new chat")
        assert "you: thanks" not in screen.log_lines
        await say(pilot, screen, "thanks")
        assert screen.turns[0].reply == "Ask me about your orders."
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        document = editor(app).document
        assert document is not None and not document.dirty  # closing adds nothing


async def test_continuing_a_cases_conversation_replays_its_turns_first(tmp_path: Path) -> None:
    project = sample_project(tmp_path / "project")
    path = project / "sample_evals/weather_graph.evalset.json"
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        document = editor(app).document
        assert document is not None and document.cases[0].eval_id == "paris_weather"
        await pilot.press("shift+f6")
        await wait_for(pilot, lambda: isinstance(app.screen, RecordScreen))
        screen = app.screen
        assert isinstance(screen, RecordScreen)
        await wait_for(pilot, lambda: len(screen.turns) == 1, what="the replayed turn")
        assert screen.turns[0].user == "What is the weather in Paris?"
        assert screen.turns[0].reply == "The weather in Paris is sunny, 21°C."
        await say(pilot, screen, "What about Oslo?")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveRecordingScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(c.eval_id == "recorded_1" for c in document.cases))
        case = next(c for c in document.cases if c.eval_id == "recorded_1").data
        assert [t["user_content"]["content"] for t in case["conversation"]] == [
            "What is the weather in Paris?",
            "What about Oslo?",
        ]


async def test_a_report_continues_a_cases_conversation_through_the_app(tmp_path: Path) -> None:
    from tenxeval_tui.screens.reports.case_detail import CaseScreen
    from tenxeval_tui.screens.reports.case_requests import CONTINUE_ACTION, app_supports

    project = sample_project(tmp_path / "project")
    app = WorkbenchApp(project / "sample_evals", watch_files=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_form(pilot)
        assert app_supports(app, CONTINUE_ACTION)
        assert any(b.action == CONTINUE_ACTION for b in CaseScreen.BINDINGS)  # type: ignore[union-attr]
        # What the report browser's f6 asks of the app (request_case_action).
        await app.run_action("continue_conversation('weather_graph', 'london_weather')")
        await wait_for(pilot, lambda: isinstance(app.screen, RecordScreen))
        screen = app.screen
        assert isinstance(screen, RecordScreen)
        document = editor(app).document
        assert document is not None and document.name.startswith("Weather agent")
        case = next(c for c in document.cases if c.eval_id == "london_weather").data
        expected = [t["user_content"]["content"] for t in case["conversation"]]
        await wait_for(pilot, lambda: len(screen.turns) == len(expected), what="the replay")
        assert [t.user for t in screen.turns] == expected
