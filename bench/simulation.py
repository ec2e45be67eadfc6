"""40 simulated conversations with the offline 10xGraph weather graph, 8 at a time: wall
seconds, model calls, and the harness's share (the time not spent waiting for the model).

Each scenario takes 3 turns (a starting prompt, then 2 messages the simulated user writes),
with a goal check after every reply and one simulation_goals verdict: 6 model calls per
scenario. The "model" is the loopback OpenAI-compatible server (in this process, on a
thread) answering after LATENCY seconds through the real ``openai`` client, so the figures
are user simulation plus harness plus one HTTP round trip per call.

Run: .venv/bin/python bench/simulation.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sample_evals.weather_graph import build_graph  # noqa: E402
from tenxeval_tui.evaluation import (  # noqa: E402
    ConversationScenario,
    CriterionConfig,
    SimulationGoalsCriterion,
    UserSimulator,
    create_eval_app,
    run_scenarios,
)
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, prompt_of  # noqa: E402
from tests.evaluation.simulators.scripted_user import (  # noqa: E402
    WRITE,
    ScriptedUser,
    when_said,
)

SCENARIOS = 40
CONCURRENCY = 8
LATENCY = 0.020
CITIES = ["Paris", "Rome", "Tokyo", "Berlin"]


class SlowUser(ScriptedUser):
    """Asks about Paris until the conversation has its weather, then about Rome."""

    def __call__(self, body: dict) -> Scripted:  # type: ignore[type-arg]
        prompt = prompt_of(body)
        if prompt.startswith(WRITE):
            paris_known = "The weather in Paris is" in prompt
            reply = Scripted("And in Rome?" if paris_known else "What is the weather in Paris?")
        else:
            reply = super().__call__(body)
        reply.delay = LATENCY
        return reply


async def main() -> None:
    server = JudgeServer().start()
    os.environ.update(
        TENXEVAL_JUDGE_MODEL="bench",
        OPENAI_BASE_URL=server.base_url,
        TENXEVAL_JUDGE_CACHE_DIR=tempfile.mkdtemp(),
    )
    goals = {f"Learn the weather in {c}": f"The weather in {c} is" for c in CITIES}
    SlowUser([], when_said(goals)).install(server)
    scenarios = [
        ConversationScenario(
            scenario_id=f"s{i}",
            starting_prompt="Hello",
            goals=["Learn the weather in Paris", "Learn the weather in Rome"],
            max_turns=4,
        )
        for i in range(SCENARIOS)
    ]
    judge = SimulationGoalsCriterion(CriterionConfig(judge_cache=False))
    simulator = UserSimulator(model="bench", api_style="chat", criteria=[judge])
    start = time.perf_counter()
    report = await run_scenarios(
        create_eval_app(build_graph()), scenarios, simulator=simulator, max_concurrency=CONCURRENCY
    )
    wall = time.perf_counter() - start
    server.stop()
    assert report.summary.passed_cases == SCENARIOS, [r.error for r in report.results][:3]
    calls = len(server.requests)
    waited = calls * LATENCY / CONCURRENCY  # the model's latency, spread over the slots
    print(
        f"scenarios {SCENARIOS}, concurrency {CONCURRENCY}, model latency {LATENCY * 1000:.0f} ms"
    )
    print(f"model calls {calls} ({calls / SCENARIOS:.1f} per scenario)")
    print(f"wall {wall:.2f} s, {wall / SCENARIOS * 1000:.0f} ms per scenario")
    print(f"harness beyond the model's latency: {max(0.0, wall - waited):.2f} s")


if __name__ == "__main__":
    asyncio.run(main())
