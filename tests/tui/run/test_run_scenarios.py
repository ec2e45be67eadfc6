"""The run view runs scenario files through the worker and streams the conversation live.

The loopback judge server plays the simulated user and the goal judge; the final goal
verdict waits for the test, so the conversation is seen while its case still runs.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select, Static

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.runs.live_run import CaseStatus
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.run.event_stream import EventStream
from tenxeval_tui.widgets.run.run_case_table import RunCaseTable
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, prompt_of
from tests.evaluation.simulators.scripted_user import JUDGE, ScriptedUser, kind_of, when_said
from tests.tui.conftest import notifications
from tests.waiting import scaled, wait_for

from .conftest import open_run_screen

SCENARIOS = {
    "scenario_set_id": "trips",
    "name": "Simulated travellers",
    "user_simulator_config": {"model": "sim-user", "api_style": "chat"},
    "scenarios": [
        {
            "scenario_id": "two_cities",
            "description": "A traveller comparing Paris and Rome",
            "starting_prompt": "Weather in Paris?",
            "goals": ["Learn the weather in Paris", "Learn the weather in Rome"],
            "max_turns": 3,
        }
    ],
}
GOALS = {
    "Learn the weather in Paris": "It is sunny in Paris.",
    "Learn the weather in Rome": "It is sunny in Rome.",
}


class GatedUser(ScriptedUser):
    """A scripted user whose final goal verdict waits until :attr:`release` is set."""

    def __init__(self) -> None:
        super().__init__(["[red]<b>And</b> the weather in Rome?"], when_said(GOALS))
        self.release = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Scripted:
        if kind_of(prompt_of(body)) == JUDGE:
            self.release.wait(scaled(60))
        return super().__call__(body)


@pytest.fixture
def user_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[JudgeServer]:
    server = JudgeServer().start()
    monkeypatch.setenv("TENXEVAL_JUDGE_MODEL", "judge-test")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("TENXEVAL_JUDGE_CACHE_DIR", str(tmp_path / "judge-cache"))
    yield server
    server.stop()


async def test_a_scenario_file_runs_and_streams_its_conversation(
    workspace: Path, user_server: JudgeServer
) -> None:
    user = GatedUser().install(user_server)
    scenario_file = workspace / "evals" / "trips.scenarios.json"
    scenario_file.write_text(json.dumps(SCENARIOS), encoding="utf-8")
    app = WorkbenchApp(workspace)
    try:
        async with app.run_test(size=(160, 40)) as pilot:
            screen = await open_run_screen(pilot)
            assert isinstance(screen, RunScreen)
            # The workspace lists the scenario file after the eval sets, and the scope
            # option offers it (a value it does not offer would raise).
            assert screen.workspace.run_files()[-1] == scenario_file.resolve()
            screen.query_one("#scope", Select).value = str(scenario_file.resolve())
            await pilot.press("ctrl+r")
            key = "trips::two_cities"

            def conversation_shown() -> bool:
                shown = "\n".join(str(line) for line in screen.query_one(EventStream).lines)
                return "It is sunny in Rome." in shown

            await wait_for(
                pilot, lambda: screen.live is not None and key in screen.live.cases, what="case"
            )
            screen.query_one(RunCaseTable).move_to(key)
            await wait_for(pilot, conversation_shown, what="the conversation on screen")
            assert screen.live is not None
            assert screen.live.cases[key].status == CaseStatus.RUNNING  # streamed live
            lines = [str(line) for line in screen.query_one(EventStream).lines]
            said = [line for line in lines if line.startswith(("● user", "■ reply"))]
            assert said == [
                '● user "Weather in Paris?"',
                '■ reply "It is sunny in Paris."',
                '● user "[red]<b>And</b> the weather in Rome?"',  # inert: shown as written
                '■ reply "It is sunny in Rome."',
            ]
            user.release.set()
            await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run's end")
            assert screen.live.cases[key].status == CaseStatus.PASSED
            assert {r["model"] for r in user_server.requests} == {"sim-user", "judge-test"}
    finally:
        user.release.set()


async def test_all_skips_a_scenario_file_without_a_user_model_and_says_so(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "TENXEVAL_USER_MODEL"):
        monkeypatch.delenv(name, raising=False)
    unready = {**SCENARIOS, "user_simulator_config": {"api_style": "chat"}}
    (workspace / "evals" / "trips.scenarios.json").write_text(json.dumps(unready))
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.runs_finished == 1, what="the run's end")
        assert screen.request is not None
        assert [p.name for p in screen.request.eval_sets] == [
            "cities.evalset.json",
            "more.evalset.json",
        ]
        assert screen.live is not None and not screen.live.crashed
        assert not any(key.startswith("trips::") for key in screen.live.cases)
        await wait_for(
            pilot,
            lambda: any(
                "Skipped evals/trips.scenarios.json" in n
                and "a model for the simulated user" in n
                and "$TENXEVAL_USER_MODEL" in n
                and "CriterionConfig" not in n
                for n in notifications(app)
            ),
            what="the skipped file's toast",
        )


async def test_a_scenario_file_chosen_alone_says_what_to_set_in_the_workbenchs_terms(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TENXEVAL_JUDGE_MODEL", "TENXEVAL_USER_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9")  # an endpoint: no key needed
    unready = {**SCENARIOS, "user_simulator_config": {"api_style": "chat"}}
    scenario_file = workspace / "evals" / "trips.scenarios.json"
    scenario_file.write_text(json.dumps(unready))
    app = WorkbenchApp(workspace)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_run_screen(pilot)
        screen.query_one("#scope", Select).value = str(scenario_file.resolve())
        await pilot.press("ctrl+r")
        message = screen.query_one("#run-message", Static)
        await wait_for(pilot, lambda: "cannot run" in str(message.render()), what="why")
        said = str(message.render())
        assert "evals/trips.scenarios.json cannot run" in said
        assert '"model" in the file\'s "user_simulator_config"' in said
        assert "judge_model in [tool.tenxeval]" in said and "$TENXEVAL_JUDGE_MODEL" in said
        assert "CriterionConfig" not in said and "API key" not in said
        assert screen.request is None  # nothing started
