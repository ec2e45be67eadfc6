"""The simulated user: an LLM that writes the user's side of one scenario's conversation.

:class:`SimulatedUser.next_turn` is the evaluator's ``NextTurn``: before each
turn it records the agent's last reply, asks its model which of the goals still
open the conversation has reached (one call for all of them), ends the
conversation when every goal is reached or the scenario's turns are used up,
and otherwise asks its model for the user's next message. The first message is
the scenario's ``starting_prompt`` when it has one.

Nothing is made up when the model fails: an endpoint error, an empty message or
a goal check that is not the JSON asked for raises :class:`SimulationError`
(quoting the reply), which ends the case as an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from tenxeval_tui.evaluation.criteria.judge_replies import GoalsReply
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgeReplyError,
    parse_json_reply,
    render_prompt,
)
from tenxeval_tui.evaluation.judges.models import JudgeError, JudgeReply, JudgeSettings
from tenxeval_tui.evaluation.judges.pool import JudgePool
from tenxeval_tui.evaluation.simulators.scenario import ConversationScenario
from tenxeval_tui.evaluation.token_usage import TokenUsage

_QUOTE = 160


class SimulationError(RuntimeError):
    """The simulated user cannot go on: its model failed or did not answer as asked."""


@dataclass
class UserModel:
    """The model that plays the user, asked through a judge pool (never from its cache)."""

    settings: JudgeSettings
    pool: JudgePool = field(default_factory=JudgePool)

    async def ask(self, prompt: str, what: str) -> JudgeReply:
        """The model's reply to ``prompt``; ``what`` names the call in an error."""
        try:
            return await self.pool.ask(self.settings, prompt, 0, fresh=True)
        except JudgeError as exc:
            raise SimulationError(f"the simulated user's model failed ({what}): {exc}") from None


def transcript(conversation: Sequence[dict[str, str]]) -> str:
    """One ``ROLE: text`` line per message (the form 10xGraph's criteria read)."""
    return "\n".join(f"{m['role'].upper()}: {m['content']}" for m in conversation)


class SimulatedUser:
    """Plays the user of ``scenario`` for at most ``max_turns`` messages."""

    def __init__(self, scenario: ConversationScenario, max_turns: int, model: UserModel) -> None:
        self.scenario = scenario
        self.max_turns = max_turns
        self.model = model
        self.conversation: list[dict[str, str]] = []
        self.goals_achieved: list[str] = []
        self.token_usage = TokenUsage()

    @property
    def open_goals(self) -> list[str]:
        """The scenario's goals not reached yet, in their order."""
        return [g for g in self.scenario.goals if g not in self.goals_achieved]

    @property
    def completed(self) -> bool:
        """Every goal reached (true from the first reply for a scenario without goals)."""
        return not self.open_goals

    async def next_turn(self, index: int, replies: Sequence[str]) -> str | None:
        """The user's message of turn ``index``, or ``None`` when the conversation is over."""
        if index > 0:
            self.conversation.append({"role": "assistant", "content": replies[-1]})
            await self._check_goals()
            if self.completed:
                return None
        if index >= self.max_turns:
            return None
        if index == 0 and self.scenario.starting_prompt:
            message = self.scenario.starting_prompt
        else:
            message = await self._write_message()
        self.conversation.append({"role": "user", "content": message})
        return message

    async def _write_message(self) -> str:
        prompt = render_prompt(
            "simulated_user_message.j2",
            description=self.scenario.description,
            plan=self.scenario.conversation_plan or "(no plan: act as the scenario says)",
            goals=self.open_goals,
            conversation=self.conversation,
        )
        reply = await self.model.ask(prompt, "writing the user's message")
        self.token_usage = self.token_usage + reply.token_usage
        message = reply.text.strip()
        if not message:
            raise SimulationError("the simulated user's model wrote an empty message")
        return message

    async def _check_goals(self) -> None:
        goals = self.open_goals
        if not goals:
            return
        prompt = render_prompt(
            "simulated_user_goal_check.j2", goals=goals, transcript=transcript(self.conversation)
        )
        reply = await self.model.ask(prompt, "checking the goals")
        self.token_usage = self.token_usage + reply.token_usage
        try:
            verdicts = GoalsReply.model_validate(parse_json_reply(reply.text)).goals
        except (JudgeReplyError, ValidationError) as exc:
            raise SimulationError(_unreadable(reply.text, _problem(exc))) from None
        strays = [v.goal for v in verdicts if not 1 <= v.goal <= len(goals)]
        if strays:
            problem = f"goals {strays} are not among the goals 1 to {len(goals)}"
            raise SimulationError(_unreadable(reply.text, problem))
        reached = {v.goal for v in verdicts if v.achieved}
        self.goals_achieved.extend(g for i, g in enumerate(goals, 1) if i in reached)


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "reply"
        return f"{where}: {first['msg']}"
    return str(exc)


def _unreadable(text: str, problem: str) -> str:
    more = "..." if len(text) > _QUOTE else ""
    return f"unparseable goal check from the simulated user's model ({problem}): {text[:_QUOTE]!r}{more}"


__all__ = ["SimulatedUser", "SimulationError", "UserModel", "transcript"]
