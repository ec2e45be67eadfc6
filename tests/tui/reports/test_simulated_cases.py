"""The report browser on a scenario run: the conversation turn by turn, the goal verdicts,
and "save as case" into an eval set the user picks (undone by ctrl+z).

The report is made by a real scenario run: a plain agent, the loopback judge server
playing the simulated user and the goal judge.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.evaluation import (
    ConversationScenario,
    EvalSet,
    ScenarioSet,
    Trace,
    run_scenarios,
)
from tenxeval_tui.screens.reports.report_detail import ReportScreen
from tenxeval_tui.screens.reports.save_as_case import EvalSetPicker
from tenxeval_tui.widgets.reports.report_list import ReportList
from tenxeval_tui.widgets.reports.simulated_conversation import SimulatedConversation
from tests.evaluation.criteria.judge_server import JudgeServer
from tests.evaluation.simulators.scripted_user import ScriptedUser, when_said
from tests.tui.browser_app import plain
from tests.tui.conftest import notifications
from tests.waiting import wait_for

GOALS = {
    "Learn the weather in Paris": "It is sunny in Paris.",
    "Learn the weather in Rome": "It is sunny in Rome.",
    "Learn the weather in Oslo": "It is sunny in Oslo.",
}


def weather(city: str) -> str:
    return f"sunny in {city}"


async def agent(message: str, trace: Trace) -> str:
    city = message.rstrip("?").split()[-1]
    trace.node("MAIN", tool_calls=["get_weather"])
    report = await trace.tool("get_weather", {"city": city}, weather)
    reply = f"It is {report}."
    trace.node("MAIN", response=reply)
    return reply


@pytest.fixture
def user_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[JudgeServer]:
    server = JudgeServer().start()
    monkeypatch.setenv("TENXEVAL_JUDGE_MODEL", "judge-test")
    monkeypatch.setenv("TENXEVAL_USER_MODEL", "sim-user")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    # the goal judge's replies are cached: here, not in the checkout the suite runs from
    monkeypatch.setenv("TENXEVAL_JUDGE_CACHE_DIR", str(tmp_path / "judge-cache"))
    yield server
    server.stop()


async def write_scenario_report(folder: Path, server: JudgeServer) -> Path:
    """Run two scenarios and write the JSON report: the first reaches Rome at its third
    turn (the agent's reply to the second names "[b]Rome"), the second misses Oslo."""
    ScriptedUser(["Weather in [b]Rome?", "Weather in Rome?"], when_said(GOALS)).install(server)
    scenarios = ScenarioSet(
        scenario_set_id="trips",
        name="Simulated travellers",
        user_simulator_config={"api_style": "chat"},
        scenarios=[
            ConversationScenario(
                scenario_id="two_cities",
                description="A traveller comparing Paris and Rome",
                starting_prompt="Weather in Paris?",
                goals=["Learn the weather in Paris", "Learn the weather in Rome"],
                max_turns=3,
            ),
            ConversationScenario(
                scenario_id="wrong_city",
                description="A traveller who never asks about Oslo",
                starting_prompt="Weather in Rome?",
                goals=["Learn the weather in Oslo"],
                max_turns=1,
            ),
        ],
    )
    report = await run_scenarios(agent, scenarios, max_concurrency=1)
    assert [r.passed for r in report.results] == [True, False]
    path = folder / "eval_reports" / "trips_20260520_180000.json"
    report.to_file(path)
    return path


async def test_a_simulated_case_shows_its_conversation_and_saves_as_a_case(
    weather_set: Path, user_server: JudgeServer
) -> None:
    await write_scenario_report(weather_set.parent, user_server)
    original = weather_set.read_text(encoding="utf-8")
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(130, 45)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        await wait_for(pilot, lambda: len(app.screen.query(ReportList)) == 1)
        await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.document)
        screen = app.screen
        assert isinstance(screen, ReportScreen)
        assert screen.check_action("save_as_case", ()) is False  # no case open: hidden
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.showing_case is not None)
        assert screen.check_action("save_as_case", ()) is True  # in the footer now
        shown_keys = {
            (b.binding.key, b.binding.description)
            for b in screen.active_bindings.values()
            if b.enabled and b.binding.show
        }
        assert ("ctrl+s", "Save as case") in shown_keys
        shown = plain(screen.query_one(SimulatedConversation))
        for line in (
            "Simulated conversation: 3 turns (at most 3), every goal reached",
            " 1 user   Weather in Paris?",
            "   agent  It is sunny in Paris.",
            '          ⚙ get_weather(city="Paris")',
            " 2 user   Weather in [b]Rome?",  # inert: markup shown as written
            " 3 user   Weather in Rome?",
            "✓ Learn the weather in Paris",
            "✓ Learn the weather in Rome",
            "judged by simulation_goals: 1.00 (threshold 0.80, passed)",
        ):
            assert line in shown, shown
        await pilot.press("down")  # the case under the cursor follows
        await wait_for(pilot, lambda: screen.showing_case.eval_id == "wrong_city")
        assert "✗ Learn the weather in Oslo" in plain(screen.query_one(SimulatedConversation))
        await pilot.press("up")
        await wait_for(pilot, lambda: screen.showing_case.eval_id == "two_cities")

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetPicker))
        await pilot.press("enter")  # the workspace's one eval set file
        await wait_for(pilot, lambda: weather_set.read_text(encoding="utf-8") != original)
        saved = EvalSet.from_file(weather_set)
        assert [c.eval_id for c in saved.eval_cases] == ["london", "paris", "two_cities"]
        case = saved.eval_cases[-1]
        assert [t.user_content.get_text() for t in case.conversation] == [
            "Weather in Paris?",
            "Weather in [b]Rome?",
            "Weather in Rome?",
        ]
        assert [t.expected_final_response.get_text() for t in case.conversation] == [
            "It is sunny in Paris.",
            "It is sunny in [b]Rome.",
            "It is sunny in Rome.",
        ]
        assert [
            (c.name, c.args) for t in case.conversation for c in t.expected_tool_trajectory
        ] == [
            ("get_weather", {"city": "Paris"}),
            ("get_weather", {"city": "[b]Rome"}),
            ("get_weather", {"city": "Rome"}),
        ]
        assert case.tags == ["simulated"]
        assert case.metadata["goals"] == list(GOALS)[:2]
        await wait_for(
            pilot,
            lambda: any("Saved as case 'two_cities'" in n for n in notifications(app)),
        )

        await pilot.press("ctrl+s")  # again: the id is taken, so it gets another
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetPicker))
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(EvalSet.from_file(weather_set).eval_cases) == 4)
        assert EvalSet.from_file(weather_set).eval_cases[-1].eval_id == "two_cities_2"

        await pilot.press("ctrl+z")  # takes the last one back
        await wait_for(pilot, lambda: len(EvalSet.from_file(weather_set).eval_cases) == 3)
        assert (
            json.loads(weather_set.read_text(encoding="utf-8"))["eval_cases"][-1]["eval_id"]
            == "two_cities"
        )


def test_a_scenario_case_is_found_in_its_scenario_file_for_a_rerun(tmp_path: Path) -> None:
    from tenxeval_tui.settings.workspace import find_eval_set_file

    named = tmp_path / "trips.scenarios.json"
    named.write_text('{"scenarios": []}', encoding="utf-8")  # its id is its name
    own = tmp_path / "other.scenarios.json"
    own.write_text('{"scenario_set_id": "holidays", "scenarios": []}', encoding="utf-8")
    assert find_eval_set_file([named, own], "trips") == named
    assert find_eval_set_file([named, own], "holidays") == own
    assert find_eval_set_file([named, own], "other") is None
