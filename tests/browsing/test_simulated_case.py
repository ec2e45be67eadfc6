"""Reading a simulated conversation's case result: turns, and whose goal verdicts count."""

from __future__ import annotations

from tenxeval_tui.browsing.simulated_case import (
    goal_verdicts,
    is_simulated,
    simulated_turns,
)
from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult

GOALS = ["Learn the weather in Paris", "Learn the weather in Oslo"]


def simulated(criteria: list[CriterionResult], **info: object) -> EvalCaseResult:
    simulation = {
        "scenario_id": "trip",
        "goals": GOALS,
        "goals_achieved": ["Learn the weather in Oslo"],
        "conversation": [
            {"role": "user", "content": "Paris?"},
            {"role": "assistant", "content": "Sunny in Paris."},
            {"role": "user", "content": "Oslo?"},
            {"role": "assistant", "content": "Snow in Oslo."},
        ],
        **info,
    }
    return EvalCaseResult(
        eval_id="trip", passed=True, criterion_results=criteria, metadata={"simulation": simulation}
    )


def test_the_judges_verdicts_win_over_the_simulated_users_checks() -> None:
    judge = CriterionResult(
        criterion="simulation_goals",
        score=0.5,
        threshold=0.8,
        passed=False,
        details={"achieved_goals": [GOALS[0]], "unachieved_goals": [GOALS[1]]},
    )
    verdicts = goal_verdicts(simulated([judge]))
    assert [(v.goal, v.achieved, v.by) for v in verdicts] == [
        (GOALS[0], True, "judge"),
        (GOALS[1], False, "judge"),
    ]


def test_without_a_judge_the_users_checks_and_turns_from_the_messages() -> None:
    result = simulated([])
    assert [(v.achieved, v.by) for v in goal_verdicts(result)] == [(False, "user"), (True, "user")]
    # No turn_results (a hand-made result): the turns are paired from the messages.
    assert [(t.user, t.reply) for t in simulated_turns(result)] == [
        ("Paris?", "Sunny in Paris."),
        ("Oslo?", "Snow in Oslo."),
    ]
    assert is_simulated(result)
    assert not is_simulated(EvalCaseResult(eval_id="plain", passed=True, criterion_results=[]))
