"""A chat with an agent in a child process: the editor's "record a case".

``python -m tenxeval_tui.runs.chat_worker SPEC FOLDER`` loads the agent as a run does
(:func:`~tenxeval_tui.evaluation.targets.loader.load_agent`, ``FOLDER`` first on the
path), then reads the user's messages from stdin, one JSON line each
(``{"text": "..."}``), and runs each as the next turn of one conversation (one thread,
as a case's turns run in the evaluator). On stdout it writes one JSON line each:

- ``chat_ready`` (``agent``) once the agent is loaded, or ``chat_error`` (``message``)
  when it cannot be (exit status 3);
- ``event`` (``event``: an :class:`EventModel` as a dict) for every node, tool call and
  model step, as the agent runs (what the run view shows);
- ``turn_end`` (``turn``, ``user``, ``reply``, ``tool_calls``: each ``name``, ``args``,
  ``result``; ``nodes``: the node visits of the turn in order; ``error``: why the turn
  failed, else ``null``) once a turn is over: what a recorded case expects.

The agent's prints go to stderr. The conversation ends with stdin (the editor closes it,
or kills the process to restart with fresh imports of the agent's code).
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.events import EventModel
from tenxeval_tui.runs.child_setup import ERROR_EXIT, exit_now
from tenxeval_tui.runs.protocol_lines import ProtocolLines, protocol_stream

USER_ID = "test_user"
"""The user id of the chat's turns: the one a new case's ``session_input`` has."""


def _call(call: Any) -> dict[str, Any]:
    return {"name": call.name, "args": dict(call.args), "result": call.result}


async def converse(spec: str, folder: Path, out: ProtocolLines) -> int:
    """Load the agent and answer every message read from stdin; the exit status."""
    from tenxeval_tui.evaluation.targets import response_text, turn_input
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, load_agent

    try:
        app, collector = load_agent(spec, cwd=folder, capture_all_events=False)
    except AgentLoadError as exc:
        out.emit({"type": "chat_error", "message": str(exc)})
        return ERROR_EXIT
    out.emit({"type": "chat_ready", "agent": spec})
    thread_id = f"chat-{uuid.uuid4().hex[:12]}"
    config = {"thread_id": thread_id, "run_id": thread_id, "user_id": USER_ID}

    def listener(event: EventModel) -> None:
        out.emit({"type": "event", "event": event.to_dict()})

    turn = 0
    with collector.capture(listener) as trace:
        while line := await asyncio.to_thread(sys.stdin.readline):
            try:
                text = str(json.loads(line)["text"])
            except (ValueError, KeyError, TypeError):
                continue
            calls, visits = len(trace.tool_calls), len(trace.node_visits)
            error: str | None = None
            reply = ""
            try:
                reply = response_text(await app.ainvoke(turn_input(app, text), config))
            except (Exception, SystemExit, KeyboardInterrupt) as exc:
                error = f"{type(exc).__name__}: {exc}"
            out.emit(
                {
                    "type": "turn_end",
                    "turn": turn,
                    "user": text,
                    "reply": reply,
                    "tool_calls": [_call(c) for c in trace.tool_calls[calls:]],
                    "nodes": list(trace.node_visits[visits:]),
                    "error": error,
                }
            )
            turn += 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tenxeval_tui.runs.chat_worker SPEC FOLDER``."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = ProtocolLines(protocol_stream())
    if len(args) != 2:
        out.emit({"type": "chat_error", "message": "usage: chat_worker SPEC FOLDER"})
        return ERROR_EXIT
    from tenxeval_tui.runs.child_setup import set_up_logging

    set_up_logging(False)
    try:
        return asyncio.run(converse(args[0], Path(args[1]), out))
    finally:
        out.flush()  # what waits for the timer: the process ends with os._exit


if __name__ == "__main__":
    exit_now(main())
