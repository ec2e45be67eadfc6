"""A chat with an agent in a child process: events as they come, each turn's record."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tenxeval_tui.runs.chat_process import ChatLine, ChatProcess

AGENT = """
import os
from tenxeval_tui.evaluation import Trace


def echo(text: str) -> str:
    return text.upper()


async def agent(message: str, trace: Trace) -> str:
    if message == "die":
        os._exit(7)
    if message == "boom":
        raise RuntimeError("broken tool")
    trace.node("MAIN", tool_calls=["echo"])
    loud = await trace.tool("echo", {"text": message}, echo)
    reply = f"{loud} (turn {trace.turn + 1})"
    trace.node("MAIN", response=reply)
    return reply
"""


async def _converse(folder: Path, messages: list[str]) -> tuple[list[ChatLine], ChatProcess]:
    chat = ChatProcess("echo_bot:agent", folder)
    await chat.start()
    seen: list[ChatLine] = []
    pending = list(messages)
    async for line in chat.lines():
        seen.append(line)
        if line.kind in ("chat_ready", "turn_end"):
            if not pending:
                chat.kill()
                continue
            await chat.say(pending.pop(0))
    return seen, chat


def test_each_turn_streams_its_events_then_its_record(tmp_path: Path) -> None:
    (tmp_path / "echo_bot.py").write_text(AGENT, encoding="utf-8")
    lines, _ = asyncio.run(_converse(tmp_path, ["hi", "boom", "again"]))
    kinds = [line.kind for line in lines]
    assert kinds[0] == "chat_ready"
    assert kinds.count("turn_end") == 3
    assert kinds.index("event") < kinds.index("turn_end")  # events come as the agent runs
    turns = [line.data for line in lines if line.kind == "turn_end"]
    assert turns[0]["reply"] == "HI (turn 1)"
    assert turns[0]["tool_calls"] == [{"name": "echo", "args": {"text": "hi"}, "result": "HI"}]
    assert turns[0]["nodes"] == ["MAIN", "MAIN"]
    assert turns[1]["error"] == "RuntimeError: broken tool"
    # One conversation: the turns go on (a plain agent keeps no history of a failed turn).
    assert turns[2]["reply"] == "AGAIN (turn 2)"


def test_an_agent_that_kills_its_process_ends_the_chat_only(tmp_path: Path) -> None:
    (tmp_path / "echo_bot.py").write_text(AGENT, encoding="utf-8")
    lines, chat = asyncio.run(_converse(tmp_path, ["die"]))
    assert [line.kind for line in lines] == ["chat_ready"]
    assert chat.returncode == 7


def test_an_agent_that_does_not_load_says_why(tmp_path: Path) -> None:
    lines, chat = asyncio.run(_converse(tmp_path, []))
    assert [line.kind for line in lines] == ["chat_error"]
    assert lines[0].data["message"] == (
        "agent 'echo_bot:agent': module 'echo_bot' not found (is the working folder right?)"
    )
    assert chat.returncode == 3
