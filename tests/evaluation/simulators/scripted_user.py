"""A scripted simulated user and goal judge, served by the loopback judge server.

The server answers each request by what its prompt asks: the user's next message
(from a list, in order), a goal check or the final goal verdict (decided by the
test's ``reached(goal, conversation)``, reading the goals and the conversation out
of the prompt as a real model would).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, prompt_of

WRITE = "You play the user"
CHECK = "You are checking a conversation"
JUDGE = "You are judging a conversation"


def _between(prompt: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\n(.*?)</{tag}>", prompt, re.S)
    assert found is not None, f"no <{tag}> in the prompt"
    return found.group(1)


def goals_in(prompt: str) -> list[str]:
    """The numbered goals a goal prompt lists."""
    return [
        line.split(". ", 1)[1] for line in _between(prompt, "goals").splitlines() if ". " in line
    ]


def kind_of(prompt: str) -> str:
    for kind in (WRITE, CHECK, JUDGE):
        if prompt.startswith(kind):
            return kind
    raise AssertionError(f"an unexpected prompt: {prompt[:80]!r}")


class ScriptedUser:
    """Plays the user (``messages`` in order) and judges goals with ``reached``."""

    def __init__(
        self,
        messages: list[str],
        reached: Callable[[str, str], bool],
        *,
        check_reply: Callable[[list[str], str], str] | None = None,
    ) -> None:
        self.messages = list(messages)
        self.reached = reached
        self.check_reply = check_reply
        self.prompts: dict[str, list[str]] = {WRITE: [], CHECK: [], JUDGE: []}

    def install(self, server: JudgeServer) -> ScriptedUser:
        server.fallback = self
        return self

    def __call__(self, body: dict[str, Any]) -> Scripted:
        prompt = prompt_of(body)
        kind = kind_of(prompt)
        self.prompts[kind].append(prompt)
        if kind == WRITE:
            if not self.messages:
                return Scripted(status=500, content="the script has no user message left")
            return Scripted(self.messages.pop(0))
        goals = goals_in(prompt)
        conversation = _between(prompt, "conversation")
        if kind == CHECK and self.check_reply is not None:
            return Scripted(self.check_reply(goals, conversation))
        verdicts = [
            {"goal": i, "achieved": self.reached(goal, conversation)}
            for i, goal in enumerate(goals, start=1)
        ]
        return Scripted(json.dumps({"reasoning": "checked each goal", "goals": verdicts}))


def when_said(needles: dict[str, str]) -> Callable[[str, str], bool]:
    """``reached``: a goal counts once the conversation holds the text given for it."""
    return lambda goal, conversation: needles[goal] in conversation
