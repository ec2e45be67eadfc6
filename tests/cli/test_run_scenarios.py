"""`tenxeval-tui run` and `validate` on scenario files, through the real console script.

The loopback judge server (in this process) plays the simulated user and the goal
judge; the console script's worker reaches it through $OPENAI_BASE_URL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import InProcess
from tests.cli.test_run import reports
from tests.evaluation.criteria.judge_server import CHAT, RESPONSES, JudgeServer, Scripted, prompt_of
from tests.evaluation.simulators.scripted_user import WRITE, ScriptedUser, kind_of, when_said

pytest.importorskip("tenxgraph", reason="the 10xgraph extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
GOALS = {
    "Learn the weather in Paris": "The weather in Paris is",
    "Learn the weather in Rome": "The weather in Rome is",
    "Learn the weather in Oslo": "The weather in Oslo is",
}
# The trip's user asks for Paris then Rome (both goals met, it ends); the joke's user
# never names Oslo, so its goal stays unmet through its 3 turns.
MESSAGES = ["What is the weather in Paris?", "And in Rome?", "Another joke please"] * 2


@pytest.fixture
def weather(tmp_path: Path) -> Path:
    """A project: the offline weather graph, its eval set and its scenario file in evals/."""
    shutil.copy(ROOT / "sample_evals/weather_graph.py", tmp_path / "weather_graph.py")
    (tmp_path / "evals").mkdir()
    for name in ("weather_graph.evalset.json", "weather_graph.scenarios.json"):
        data = json.loads((ROOT / "sample_evals" / name).read_text())
        data["metadata"]["agent"] = "weather_graph:build_graph"
        (tmp_path / "evals" / name).write_text(json.dumps(data, indent=2))
    return tmp_path


def scripted(server: JudgeServer) -> ScriptedUser:
    return ScriptedUser(list(MESSAGES), when_said(GOALS)).install(server)


def test_a_folder_runs_its_scenarios_with_its_eval_sets_into_one_report(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    user = scripted(judge_env)
    done = in_process(
        weather,
        "run",
        "evals",
        "--concurrency",
        "1",
        "--output-dir",
        "out",
        "--no-html",
        "-o",
        "copy.json",
    )
    assert done.returncode == 1, done.stderr  # the joke scenario misses its goal
    # Progress as for eval sets: one line per case, scenarios included.
    assert "PASS  weather_graph_scenarios/weekend_trip" in done.stdout
    assert "FAIL  weather_graph_scenarios/off_topic" in done.stdout
    (report_file,) = reports(weather / "out")
    report = json.loads(report_file.read_text())
    assert report == json.loads((weather / "copy.json").read_text())
    by_id = {r["eval_id"]: r for r in report["results"]}
    eval_set_cases = json.loads((weather / "evals/weather_graph.evalset.json").read_text())
    assert set(by_id) == {"weekend_trip", "off_topic"} | {
        c["eval_id"] for c in eval_set_cases["eval_cases"]
    }
    trip = by_id["weekend_trip"]
    assert trip["passed"] is True
    assert [t["user_input"] for t in trip["turn_results"]] == [
        "Hello! I'm planning a weekend away.",
        "What is the weather in Paris?",
        "And in Rome?",
    ]
    assert trip["turn_results"][1]["agent_response"] == "The weather in Paris is sunny, 21°C."
    assert trip["metadata"]["simulation"]["goals_achieved"] == list(GOALS)[:2]
    assert [c["criterion"] for c in trip["criterion_results"]] == ["simulation_goals"]
    joke = by_id["off_topic"]
    assert (joke["passed"], joke["metadata"]["simulation"]["turns"]) == (False, 3)
    # The file's user_simulator_config: its model, through the Responses API; the goals
    # judged by the default judge (TENXEVAL_JUDGE_MODEL) through chat completions.
    assert {
        (r["model"], route) for r, route in zip(judge_env.requests, judge_env.routes(), strict=True)
    } == {("gpt-4o-mini", RESPONSES), ("judge-test", CHAT)}
    # Four messages written by the model: two per scenario after its starting prompt.
    assert user.messages == MESSAGES[4:]
    assert not list((weather / "out").glob("*.journal.jsonl"))  # reports written: dropped


def test_json_summary_case_selection_and_user_model_flag(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    scripted(judge_env)
    done = in_process(
        weather,
        "run",
        "evals/weather_graph.scenarios.json",
        "--case",
        "weekend_trip",
        "--user-model",
        "sim-user",
        "--json",
        "--output-dir",
        "out",
        "--no-html",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["exit_code"], summary["passed_cases"], summary["total_cases"]) == (0, 1, 1)
    assert summary["eval_set_id"] == "weather_graph_scenarios"
    users = {r["model"] for r in judge_env.requests if r["model"] != "judge-test"}
    assert users == {"sim-user"}  # the flag wins over the file's gpt-4o-mini


def test_no_user_model_anywhere_is_a_usage_error_naming_the_file(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    path = weather / "evals/weather_graph.scenarios.json"
    data = json.loads(path.read_text())
    del data["user_simulator_config"]
    path.write_text(json.dumps(data))
    done = in_process(
        weather,
        "run",
        str(path),
        "--output-dir",
        "out",
        env={"TENXEVAL_JUDGE_MODEL": "", "TENXEVAL_USER_MODEL": ""},
    )
    assert done.returncode == 2
    assert str(path) in done.stderr
    assert "TENXEVAL_USER_MODEL" in done.stderr and "--user-model" in done.stderr
    assert judge_env.requests == []  # nothing ran


def test_validate_checks_scenario_files_with_located_problems(
    weather: Path, in_process: InProcess
) -> None:
    good = in_process(weather, "validate", "evals")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "weather_graph.scenarios.json: ok" in good.stdout
    assert "weather_graph.evalset.json: ok" in good.stdout
    path = weather / "evals/weather_graph.scenarios.json"
    text = path.read_text().replace('"goals"', '"goal"', 1)
    path.write_text(text)
    bad = in_process(weather, "validate", str(path))
    assert bad.returncode == 1
    line = 1 + text[: text.index('"goal"')].count("\n")
    assert f"{path}:{line}:" in bad.stdout
    assert "scenarios[0].goal" in bad.stdout


def test_a_folder_scan_skips_scenario_files_that_cannot_run_and_runs_the_rest(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    path = weather / "evals/weather_graph.scenarios.json"
    data = json.loads(path.read_text())
    del data["user_simulator_config"]
    path.write_text(json.dumps(data))
    no_model = {"TENXEVAL_JUDGE_MODEL": "", "TENXEVAL_USER_MODEL": ""}
    done = in_process(weather, "run", "evals", "--output-dir", "out", "--no-html", env=no_model)
    assert (
        "skipped evals/weather_graph.scenarios.json: it needs a model for the simulated user"
        in done.stderr
    )
    (report_file,) = reports(weather / "out")
    ids = {r["eval_id"] for r in json.loads(report_file.read_text())["results"]}
    eval_set = json.loads((weather / "evals/weather_graph.evalset.json").read_text())
    assert ids == {c["eval_id"] for c in eval_set["eval_cases"]}
    assert judge_env.requests == []
    # Only scenario files that cannot run: nothing is left, a usage error.
    (weather / "evals/weather_graph.evalset.json").unlink()
    alone = in_process(weather, "run", "evals", "--output-dir", "out2", env=no_model)
    assert alone.returncode == 2
    assert "no file left to run" in alone.stderr


def test_retry_errors_runs_an_errored_conversation_again(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    # The first call to the simulated user's model is refused (a 400 is not retried by
    # the client): that conversation errs; the retry, in a new worker, goes through.
    judge_env.script(Scripted(status=400, content="bad request"))
    scripted(judge_env)
    done = in_process(
        weather,
        "run",
        "evals/weather_graph.scenarios.json",
        "--case",
        "weekend_trip",
        "--retry-errors",
        "1",
        "--output-dir",
        "out",
        "--no-html",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "retrying 1 errored case(s) (retry 1 of 1)" in done.stdout
    (report_file,) = reports(weather / "out")
    (result,) = json.loads(report_file.read_text())["results"]
    assert (result["eval_id"], result["passed"], result["error"]) == ("weekend_trip", True, None)


def test_resume_simulates_only_the_conversations_the_journal_lacks(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult
    from tenxeval_tui.evaluation.results.journal import RunJournal
    from tenxeval_tui.evaluation.simulators.scenario_sets import load_run_file

    path = weather / "evals/weather_graph.scenarios.json"
    eval_set = load_run_file(path)
    journal = RunJournal(weather / "killed.journal.jsonl")  # as a killed run left it
    journal.on_run_start(eval_set, eval_set.eval_cases)
    journal.on_case_end(
        EvalCaseResult(
            eval_id="off_topic",
            passed=True,
            actual_response="from the journal",
            metadata={"eval_set_id": eval_set.eval_set_id},
        )
    )
    scripted(judge_env)
    done = in_process(
        weather,
        "run",
        str(path),
        "--resume",
        "killed.journal.jsonl",
        "--output-dir",
        "out",
        "--no-html",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resuming killed.journal.jsonl: 1 case(s) finished, 1 to run" in done.stdout
    (report_file,) = reports(weather / "out")
    results = {r["eval_id"]: r for r in json.loads(report_file.read_text())["results"]}
    assert results["off_topic"]["actual_response"] == "from the journal"
    assert results["weekend_trip"]["passed"] is True
    # Only the trip was simulated: its two written messages, none of the joke's.
    written = [p for p in judge_env.prompts() if p.startswith("You play the user")]
    assert len(written) == 2


def test_a_simulated_user_failing_at_its_second_message_says_turn_2(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    user = scripted(judge_env)

    def second_message_refused(body: dict[str, object]) -> Scripted:
        if kind_of(prompt_of(body)) == WRITE:  # the first message is the scenario's own
            return Scripted(status=400, content="refused")
        return user(body)

    judge_env.fallback = second_message_refused
    done = in_process(
        weather,
        "run",
        "evals/weather_graph.scenarios.json",
        "--case",
        "weekend_trip",
        "--output-dir",
        "out",
        "--no-html",
    )
    assert done.returncode == 1, done.stdout + done.stderr
    (report_file,) = reports(weather / "out")
    (result,) = json.loads(report_file.read_text())["results"]
    assert result["error"].startswith("SimulationError: the simulated user's model failed")
    assert result["error"].endswith("(turn 2)"), result["error"]  # no "of 1": it ran on


def test_scenario_tools_are_recorded_replayed_and_broken_as_an_eval_sets(
    weather: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    from tests.cli.test_tools import SIDE_EFFECT_GRAPH, _modes, _outcomes

    (weather / "side_effect_graph.py").write_text(SIDE_EFFECT_GRAPH)
    path = weather / "evals/weather_graph.scenarios.json"
    data = json.loads(path.read_text())
    data["metadata"]["agent"] = "side_effect_graph:build_graph"
    off_topic = data["scenarios"][1]
    off_topic["metadata"] = {
        "tools": {"faults": [{"tool": "get_weather", "call": 1, "raises": "ConnectionError"}]}
    }
    path.write_text(json.dumps(data, indent=2))
    args = ["run", str(path), "--concurrency", "1", "--no-html", "--output-dir", "out"]
    scripted(judge_env)
    recorded = in_process(weather, *args, "--tools", "record", "-o", "record.json")
    assert recorded.returncode == 1, recorded.stderr  # off_topic misses its goal
    log = weather / "tool-calls.log"
    assert log.read_text().splitlines() == ["get_weather Paris", "get_weather Rome"]
    cassette = weather / "evals/weather_graph.scenarios.tools.jsonl"
    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert [(c["case"], c["call"], c["args"]) for c in lines] == [
        ("weekend_trip", 1, {"location": "Paris"}),
        ("weekend_trip", 2, {"location": "Rome"}),
    ]
    assert not (weather / "evals/weather_graph.tools.jsonl").exists()  # the eval set's
    record = json.loads((weather / "record.json").read_text())
    off = next(r for r in record["results"] if r["eval_id"] == "off_topic")
    # The fault reached the model as a failed tool result: it said so.
    assert "could not get the weather in Paris" in off["turn_results"][-1]["agent_response"]
    log.unlink()
    scripted(judge_env)  # the same user again
    replayed = in_process(weather, *args, "--tools", "replay", "-o", "replay.json")
    assert replayed.returncode == 1, replayed.stderr
    assert not log.exists()  # no real tool ran
    assert _outcomes(weather / "replay.json") == _outcomes(weather / "record.json")
    assert _modes(weather / "replay.json") == {
        "weekend_trip": ["replayed", "replayed"],
        "off_topic": ["faked"],
    }
