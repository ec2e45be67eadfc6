"""40 simulated conversations run by `tenxeval-tui run` on a scenario file, 8 at a time:
wall seconds of the whole command (worker child, journal, progress lines, report files)
next to the same scenarios run in process by run_scenarios, and the JSON report's size.

The agent is the offline 10xGraph weather graph; the simulated user and the goal judge
are the loopback OpenAI-compatible server (in this process, on a thread) answering after
LATENCY seconds, reached through the real ``openai`` client by the console script's
worker. Each scenario takes 3 turns and 6 model calls (as in bench/simulation.py).

Run: .venv/bin/python bench/scenario_cli.py
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.simulation import CITIES, CONCURRENCY, LATENCY, SCENARIOS, SlowUser  # noqa: E402
from sample_evals.weather_graph import build_graph  # noqa: E402
from tenxeval_tui.evaluation import (  # noqa: E402
    ScenarioSet,
    UserSimulator,
    create_eval_app,
    run_scenarios,
)
from tenxeval_tui.evaluation.criteria.simulation_goals import (  # noqa: E402
    SimulationGoalsCriterion,
)
from tests.evaluation.criteria.judge_server import JudgeServer  # noqa: E402
from tests.evaluation.simulators.scripted_user import when_said  # noqa: E402

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


def scenario_file(folder: Path) -> Path:
    data = {
        "scenario_set_id": "bench",
        "metadata": {"agent": "weather_graph:build_graph"},
        "user_simulator_config": {"model": "bench", "api_style": "chat"},
        "scenarios": [
            {
                "scenario_id": f"s{i}",
                "starting_prompt": "Hello",
                "goals": ["Learn the weather in Paris", "Learn the weather in Rome"],
                "max_turns": 4,
            }
            for i in range(SCENARIOS)
        ],
    }
    path = folder / "bench.scenarios.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def main() -> None:
    server = JudgeServer().start()
    folder = Path(tempfile.mkdtemp())
    shutil.copy(ROOT / "sample_evals/weather_graph.py", folder / "weather_graph.py")
    os.environ.update(
        TENXEVAL_JUDGE_MODEL="bench",
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL=server.base_url,
        TENXEVAL_JUDGE_CACHE_DIR=str(folder / "cache"),
    )
    goals = {f"Learn the weather in {c}": f"The weather in {c} is" for c in CITIES}
    SlowUser([], when_said(goals)).install(server)
    path = scenario_file(folder)
    start = time.perf_counter()
    done = subprocess.run(
        [str(SCRIPT), "run", str(path), "--concurrency", str(CONCURRENCY), "-q", "--no-html"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    cli_wall = time.perf_counter() - start
    assert done.returncode == 0, done.stdout + done.stderr
    cli_calls = len(server.requests)
    (report,) = (folder / "eval_reports").glob("*.json")
    size = report.stat().st_size

    sys.path.insert(0, str(folder))
    simulator = UserSimulator(
        model="bench", api_style="chat", criteria=[SimulationGoalsCriterion()]
    )
    start = time.perf_counter()
    in_process = asyncio.run(
        run_scenarios(
            create_eval_app(build_graph()),
            ScenarioSet.from_file(path),
            simulator=simulator,
            max_concurrency=CONCURRENCY,
        )
    )
    lib_wall = time.perf_counter() - start
    server.stop()
    assert in_process.summary.passed_cases == SCENARIOS
    print(
        f"scenarios {SCENARIOS}, concurrency {CONCURRENCY}, model latency {LATENCY * 1000:.0f} ms"
    )
    print(
        f"model calls {cli_calls} by the CLI run ({cli_calls / SCENARIOS:.1f} per scenario; "
        "the goal verdicts of identical conversations come from the judge cache)"
    )
    print(f"tenxeval-tui run (whole command): {cli_wall:.2f} s")
    print(f"run_scenarios in process:         {lib_wall:.2f} s")
    print(f"the command's own cost (start, worker, journal, reports): {cli_wall - lib_wall:.2f} s")
    print(f"JSON report {size / 1024:.0f} kB, {size / SCENARIOS / 1024:.1f} kB per conversation")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    from support.own_settings import own_settings

    with own_settings():  # never the developer's settings file and state
        main()
